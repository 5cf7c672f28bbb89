package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.host.ReceiveSlots;
import org.portals3j.isotach.internal.noniso.NonisoLayer;
import org.portals3j.isotach.internal.siu.ArrivalQueue;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.siu.TransportTraits;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.CacheLinePadding;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * The Isotach layer's transport side: checks each arriving frame and hands it by kind to the noniso module or the
 * switch node (directly, or through the host's thread while it polls); a frame that fails a check is counted, dropped.
 */
final class FrameIntake extends CacheLinePadding implements PollingHandler {
    private final SwitchNode siu;
    private final NonisoLayer noniso;
    private final IsotachHost host;
    /** Per source, the message between its header and its deposit. */
    private final Intake[] intake;
    /**
     * On an inline transport that reports its pollers gone: the switch node's frames, handed to this host's thread
     * ({@link ArrivalQueue}); null elsewhere (a transport with a thread of its own already delivers on the polling
     * thread while the host polls).
     */
    private final @Nullable ArrivalQueue arrivals;
    /** Where ISO payloads go (the host's, in an object of its own: see ReceiveSlots). */
    private final ReceiveSlots receiveSlots;
    /** Whether this host's thread polls: set by each poll, cleared when the transport reports its pollers gone. */
    private volatile boolean hostPolling;
    /** Transport threads count (on inmem, every sender's): shared increments. */
    private final CounterRegistry counters = new CounterRegistry(2);
    private final Counter droppedFrames = counters.counter("engine.drop.frame",
            "frames dropped: empty, malformed, of an unknown kind, or ISO with no receive slot");
    private final Counter droppedDeposits = counters.counter("engine.drop.deposit",
            "ISO frames whose payload transfer failed");

    FrameIntake(Transport transport, SwitchNode siu, NonisoLayer noniso, IsotachHost host) {
        this.siu = siu;
        this.noniso = noniso;
        this.host = host;
        this.intake = new Intake[transport.size()];
        for (int i = 0; i < intake.length; i++) {
            intake[i] = new Intake();
        }
        this.receiveSlots = host.receiveSlots();
        this.arrivals = TransportTraits.deliversInline(transport) && TransportTraits.reportsPollersGone(transport)
                ? new ArrivalQueue(1024, transport.size(), new ArrivalSink(siu)) : null;
    }

    // ---- the host's thread ------------------------------------------------------------------------------------

    /** The host's poll begins: from now on frames wait for it (set before the transport hears of the poll). */
    void hostPolls() {
        if (arrivals != null && !hostPolling) {
            hostPolling = true; // before the transport hears of the poll: see ArrivalQueue
        }
    }

    /** The host's poll, after the transport's: the frames handed to this thread go to the switch node. */
    void drainForHost() {
        ArrivalQueue queue = arrivals;
        if (queue != null) {
            queue.drainForHost();
        }
    }

    void counters(Map<String, Long> m) {
        counters.snapshotInto(m);
    }

    // ---- MessageHandler ---------------------------------------------------------------------------------------

    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        if (headerLength < 1) {
            droppedFrames.incrementShared();
            return;
        }
        byte kind = header.get(ValueLayout.JAVA_BYTE, 0);
        Intake in = intake[source];
        in.noniso = NonisoLayer.owns(kind);
        if (in.noniso) {
            noniso.onHeader(source, header, headerLength, payloadLength, deposit);
            return;
        }
        in.isoAccepted = false;
        if (!Frame.check(header, headerLength) || (kind != Frame.ISO && payloadLength != 0)) {
            droppedFrames.incrementShared();
            return;
        }
        switch (kind) {
            case Frame.ISO -> {
                long at = receiveSlots.offsetFor(source, header, payloadLength);
                if (at < 0) {
                    droppedFrames.incrementShared();
                    // the packet is refused, not the clock items behind it
                    arrived(source, ArrivalQueue.CLOCK_ONLY, header, headerLength);
                    return;
                }
                MemorySegment.copy(header, 0, in.isoHeader, 0, Frame.ISO_LENGTH);
                in.isoAccepted = true;
                if (payloadLength > 0) {
                    deposit.accept(receiveSlots.segment(), at, payloadLength);
                }
            }
            case Frame.CLOCK, Frame.BARRIER_SIGNAL_MARKER, Frame.SYNC, Frame.ISO_CREDIT, Frame.LEAVE ->
                    arrived(source, ArrivalQueue.FRAME, header, headerLength);
            default -> droppedFrames.incrementShared();
        }
    }

    @Override
    public void onDeposited(int source, Deposit deposit) {
        if (source < 0 || source >= intake.length) {
            return;
        }
        Intake in = intake[source];
        if (in.isoAccepted) {
            in.isoAccepted = false;
            if (deposit.failed()) {
                droppedDeposits.incrementShared();
                arrived(source, ArrivalQueue.CLOCK_ONLY, in.isoHeader, Frame.ISO_LENGTH);
                return;
            }
            arrived(source, ArrivalQueue.ISO, in.isoHeader, Frame.ISO_LENGTH);
            return;
        }
        if (in.noniso) {
            in.noniso = false;
            noniso.onDeposited(source, deposit);
        }
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
        int owner = (int) (token >>> 56);
        if (owner == 0x01) {
            noniso.onSendComplete(token, delivered);
        } else if (owner == 0x02) {
            host.onSendComplete(token);
        }
    }

    /**
     * A frame for the switch node, checked: processed here, or handed to the host's thread while it polls (and then
     * drained here after all if the host has stopped polling meanwhile: the queue's write and this read are ordered).
     */
    private void arrived(int source, int type, MemorySegment header, int length) {
        ArrivalQueue queue = arrivals;
        if (queue == null) {
            ArrivalSink.dispatch(siu, source, type, header);
            return;
        }
        queue.add(source, type, header, length);
        if (!hostPolling) {
            queue.drainForeign();
        }
    }

    @Override
    public void onPeerFailure(int peer) {
        noniso.onPeerFailure(peer);
        ArrivalQueue queue = arrivals;
        if (queue == null) {
            siu.peerDown(peer);
            return;
        }
        queue.peerDown(peer); // after the frames it sent, which may still wait for the host
        if (!hostPolling) {
            queue.drainForeign();
        }
    }

    /**
     * The host's thread stopped polling: what waits for it is done here (frames handed to it, lingering clock frames).
     */
    @Override
    public void onPollersGone() {
        ArrivalQueue queue = arrivals;
        if (queue != null) {
            hostPolling = false;
            queue.drainForeign();
        }
        siu.pollersGone();
    }
}
