package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Transport;

/**
 * Puts tokens, pulse marks and wake-ups for a link into the clock section of the frame still queued last for it in
 * the {@link Outbox}, or of a new CLOCK frame behind it; the caller holds the switch node's lock.
 */
final class ClockItemWriter {
    private final Outbox outbox;
    private final MemorySegment frame = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);

    ClockItemWriter(Outbox outbox) {
        this.outbox = outbox;
    }

    /** {@code TOKEN(pulse)} for {@code peer}, with its effect {@code bits} due at {@code effectPulse}. */
    void token(int peer, long pulse, int bits, long effectPulse, boolean ackNow) {
        MemorySegment f = sectionFor(peer);
        long at = Frame.clockOffset(Frame.kind(f));
        if (!ClockSection.addToken(f, at, pulse, bits, effectPulse)) {
            // The queued section's run cannot take it (its last token had effects): a frame of its own, behind it.
            f = newClockFrame(peer);
            at = Frame.O_CLOCK;
            ClockSection.addToken(f, at, pulse, bits, effectPulse);
        }
        if (ackNow) {
            ClockSection.requestAck(f, at);
        }
    }

    /** {@code PULSE_MARK(mark)} for {@code peer}; {@code seen} is the last token this SIU has seen. */
    void mark(int peer, long mark, long seen) {
        MemorySegment f = sectionFor(peer);
        ClockSection.addMark(f, Frame.clockOffset(Frame.kind(f)), mark, seen);
    }

    /** A wake-up for the token manager at {@code peer}: time must reach {@code need}. */
    void need(int peer, long need) {
        MemorySegment f = sectionFor(peer);
        ClockSection.addNeed(f, Frame.clockOffset(Frame.kind(f)), need);
    }

    /** Where a clock item for {@code peer} goes: the section of a frame still queued for it, or a new CLOCK frame. */
    private MemorySegment sectionFor(int peer) {
        MemorySegment pending = outbox.pendingClock(peer);
        if (pending != null) {
            return pending;
        }
        return newClockFrame(peer);
    }

    private MemorySegment newClockFrame(int peer) {
        Frame.start(frame, Frame.CLOCK);
        ClockSection.clear(frame, Frame.O_CLOCK);
        return outbox.add(peer, frame, Frame.CLOCK_LENGTH, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
    }
}
