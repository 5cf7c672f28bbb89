package org.portals3j.isotach.internal.host;

import java.lang.foreign.MemorySegment;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The ordered receive slot each ISO frame's payload goes to, exactly the next of its sender's (§3.6.2, I-050); the
 * transport side's object, padded apart from the host's fields (docs/isotach-switch-node.md).
 */
public final class ReceiveSlots extends ReceiveSlotsFields {
    long q0;
    long q1;
    long q2;
    long q3;
    long q4;
    long q5;
    long q6;
    long q7;

    ReceiveSlots(int me, int hosts, int credits, int maxPayload, MemorySegment slots) {
        super(me, hosts, credits, maxPayload, slots);
    }

    /**
     * All the slots, one after another, {@code maxPayload} bytes each: a deposit names this one segment and an
     * offset, so that it stores the same reference every time (see {@code Outbox} on reference stores).
     */
    public MemorySegment segment() {
        return slots;
    }

    /**
     * Picks the ordered receive slot for an ISO frame from {@code source} and returns its offset in {@link #segment()}.
     * The sender chose it from its credit count; it must be exactly the next one (per-sender FIFO,
     * Isotach report §3.6.2, pp. 20-23) and the length must fit: anything else is hostile and refused (-1).
     */
    public long offsetFor(int source, MemorySegment h, long payloadLength) {
        if (source < 0 || source >= hosts || source == me) {
            return -1;
        }
        int slot = Frame.i32(h, Frame.O_ISO_SLOT);
        int length = Frame.i32(h, Frame.O_ISO_LENGTH);
        int subtype = Frame.u8(h, Frame.O_BYTE2);
        if (slot != (int) (expected[SLACK + source] % credits) || length < 0 || length > maxPayload
                || length != payloadLength
                || (subtype != IsotachHost.ISO_MBM && (subtype < 0x11 || subtype > 0x14 || length != 0))) {
            return -1;
        }
        expected[SLACK + source]++;
        return (long) (source * credits + slot) * maxPayload;
    }
}

/**
 * ReceiveSlots' fields, between the padding of its superclass and of its subclass (HotSpot lays out a superclass's
 * fields first).
 */
abstract class ReceiveSlotsFields extends CacheLinePadding {
    /** Slack on each side of the per-sender counts, so that the array's neighbours are on other lines. */
    static final int SLACK = 8;

    final int me;
    final int hosts;
    final int credits;
    final int maxPayload;
    final MemorySegment slots;
    /** The next slot index expected from each sender, at {@code SLACK + sender}; written by the delivering threads. */
    final long[] expected;

    ReceiveSlotsFields(int me, int hosts, int credits, int maxPayload, MemorySegment slots) {
        this.me = me;
        this.hosts = hosts;
        this.credits = credits;
        this.maxPayload = maxPayload;
        this.slots = slots;
        this.expected = new long[SLACK + hosts + SLACK];
    }
}
