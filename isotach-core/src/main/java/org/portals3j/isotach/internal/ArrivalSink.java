package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import org.portals3j.isotach.internal.siu.ArrivalQueue;
import org.portals3j.isotach.internal.siu.HostLink;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.wire.Frame;

/**
 * The switch node's side of the engine's transport callbacks: a checked frame, by what the engine found it to be, goes
 * to the switch node's entry for it. Runs where the frame arrived, or on the host's thread ({@link ArrivalQueue}).
 */
final class ArrivalSink implements ArrivalQueue.Sink {
    private final SwitchNode siu;

    ArrivalSink(SwitchNode siu) {
        this.siu = siu;
    }

    @Override
    public void arrived(int source, int type, MemorySegment header) {
        dispatch(siu, source, type, header);
    }

    @Override
    public void peerDown(int peer) {
        siu.peerDown(peer);
    }

    /** {@code header} passed {@link Frame#check} and is of a kind the switch node takes. */
    static void dispatch(SwitchNode siu, int source, int type, MemorySegment header) {
        if (type == ArrivalQueue.ISO) {
            siu.onIso(source, header);
            return;
        }
        if (type == ArrivalQueue.CLOCK_ONLY) {
            siu.onClock(source, header);
            return;
        }
        switch (Frame.kind(header)) {
            case Frame.CLOCK -> siu.onClock(source, header);
            case Frame.BARRIER_SIGNAL_MARKER -> siu.onBarrierSignalMarker(source, header);
            case Frame.SYNC -> siu.toHost(HostLink.SYNC, source, Frame.u8(header, Frame.O_BYTE2),
                    Frame.i32(header, Frame.O_INT4), Frame.i32(header, Frame.O_INT8), 0);
            case Frame.ISO_CREDIT -> siu.toHost(HostLink.CREDIT, source, 0, 0, 0, Frame.i64(header, Frame.O_LONG8));
            case Frame.LEAVE -> siu.peerDown(source);
            default -> throw new IllegalArgumentException("frame kind " + Frame.kind(header)
                    + " is not the switch node's");
        }
    }
}
