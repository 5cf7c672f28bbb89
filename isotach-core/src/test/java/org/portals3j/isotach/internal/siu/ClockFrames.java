package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;

/** CLOCK frames as a token manager or a peer SIU would send them, for feeding a switch node by hand. */
final class ClockFrames {
    private ClockFrames() {
    }

    /** {@code TOKEN(pulse)} whose effect {@code bits} are due at {@code at}. */
    static MemorySegment token(long pulse, int bits, long at) {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.CLOCK);
        ClockSection.addToken(f, Frame.O_CLOCK, pulse, bits, at);
        return f;
    }

    /** {@code PULSE_MARK(pulse)} of an SIU that has seen token {@code pulse + 1}. */
    static MemorySegment mark(long pulse) {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.CLOCK);
        ClockSection.addMark(f, Frame.O_CLOCK, pulse, pulse + 1);
        return f;
    }
}
