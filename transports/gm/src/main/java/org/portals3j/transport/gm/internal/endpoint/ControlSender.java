package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * The control messages a receive path sends (FIN, CREDIT, BYE): the wire header alone, at high priority, from each
 * peer's own control buffers. Used only by whoever runs the receive path; FINs are taken under the peer's lock.
 */
final class ControlSender {
    private final GmPort port;
    private final Peer[] peers;

    ControlSender(GmPort port, Peer[] peers) {
        this.port = port;
        this.peers = peers;
    }

    /** Sends the FINs no data message took, as control messages while control buffers are free. */
    void sendFins() {
        for (Peer p : peers) {
            if (!p.hasUnsentFin()) { // read without its lock: only the receive path (this thread now) adds FINs
                continue;
            }
            p.lock.lock();
            try {
                while (!p.failed && p.hasUnsentFin() && p.freeControl() >= 0) {
                    int fin = p.takeFin();
                    send(p, WireHeader.KIND_FIN, WireHeader.finSlot(fin), WireHeader.finRead(fin) ? 1 : 0);
                }
            } finally {
                p.lock.unlock();
            }
        }
    }

    /** Sends what is due of the credits each peer has given back, when no data message carried them. */
    void returnCredits() {
        for (Peer p : peers) {
            if (!p.failed && p.returns.due() && p.freeControl() >= 0) {
                send(p, WireHeader.KIND_CREDIT, 0, 0);
            }
        }
    }

    /** Sends a control message of {@code kind} to {@code p} if one of its control buffers is free. */
    void send(Peer p, int kind, int slot, long outcome) {
        int c = p.freeControl();
        if (c < 0 || p.failed) {
            return;
        }
        MemorySegment b = p.controlBuffers[c];
        WireHeader.write(b, kind, 0, p.returns.take(), 0, slot, WireHeader.NO_FIN, outcome, 0, 0);
        p.controlBusy[c] = true;
        port.send(b, PortSetup.CONTROL_SIZE, WireHeader.LENGTH, GmPort.HIGH_PRIORITY, p.node, p.gmPort,
                Contexts.of(Contexts.CONTROL, p.rank, c));
    }
}
