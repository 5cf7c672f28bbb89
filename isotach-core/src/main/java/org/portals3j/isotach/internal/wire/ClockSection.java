package org.portals3j.isotach.internal.wire;

import java.lang.foreign.MemorySegment;

/**
 * The emulated hardware's clock traffic on one link as one fixed-size frame section (layout in {@link Frame}): a run
 * of tokens, the sender's pulse mark and its wake-up, merged while queued and applied in that order.
 */
public final class ClockSection {
    public static final int LENGTH = 48;

    public static final int HAS_TOKEN = 1;
    public static final int HAS_MARK = 2;
    public static final int HAS_NEED = 4;
    /**
     * Set by the token manager on a token after which its window is full: it cannot issue the next token before the
     * receiver acknowledges this one, so neither the token nor the receiver's acknowledgement may linger
     * ({@code siu.Outbox}).
     */
    public static final int ACK_NOW = 8;

    private static final long O_FLAGS = 0;
    private static final long O_BITS = 1;
    private static final long O_RUN = 2;
    /** The longest run of tokens one section carries beyond its first. */
    public static final int MAX_RUN = 255;
    private static final long O_TOKEN = 8;
    private static final long O_EFFECT = 16;
    private static final long O_MARK = 24;
    private static final long O_SEEN = 32;
    private static final long O_NEED = 40;

    private ClockSection() {
    }

    /** An empty section at {@code at} (a frame being built). */
    public static void clear(MemorySegment frame, long at) {
        for (long k = 0; k < LENGTH; k += Long.BYTES) { // not asSlice(..).fill: no segment per frame on the send path
            Frame.i64(frame, at + k, 0);
        }
    }

    public static int flags(MemorySegment frame, long at) {
        return Frame.u8(frame, at + O_FLAGS);
    }

    /**
     * Adds {@code TOKEN(pulse)} with its effect bits due at {@code effectPulse}: as the section's token, or as the next
     * of its run when the section's last token is {@code pulse - 1} and had no effect bits. False (nothing changed)
     * otherwise.
     *
     * <p>A mark or a need is cumulative (the larger value says everything the smaller did); a token is not: the
     * receiver takes tokens one by one, each with its effect bits. So a section holds a run of consecutive tokens
     * {@code tokenPulse - tokenRun .. tokenPulse} of which only the last may carry effect bits, and a token that
     * cannot extend the run needs a frame of its own.
     */
    public static boolean addToken(MemorySegment frame, long at, long pulse, int bits, long effectPulse) {
        int flags = flags(frame, at);
        int run = 0;
        if ((flags & HAS_TOKEN) != 0) {
            run = tokenRun(frame, at) + 1;
            if (tokenBits(frame, at) != 0 || pulse != tokenPulse(frame, at) + 1 || run > MAX_RUN) {
                return false;
            }
        }
        Frame.u8(frame, at + O_FLAGS, flags | HAS_TOKEN);
        Frame.u8(frame, at + O_BITS, bits);
        Frame.u8(frame, at + O_RUN, run);
        Frame.i64(frame, at + O_TOKEN, pulse);
        Frame.i64(frame, at + O_EFFECT, effectPulse);
        return true;
    }

    /**
     * Adds every item of the section at {@code from}/{@code fromAt} to the one at {@code to}/{@code toAt}, as if each
     * had
     * been added there in the order the receiver applies them. False, with nothing changed, when {@code to} already
     * carries a token: two runs are never spliced.
     */
    public static boolean mergeInto(MemorySegment from, long fromAt, MemorySegment to, long toAt) {
        int flags = flags(from, fromAt);
        if ((flags & HAS_TOKEN) != 0) {
            if ((flags(to, toAt) & HAS_TOKEN) != 0) {
                return false;
            }
            Frame.u8(to, toAt + O_FLAGS, flags(to, toAt) | HAS_TOKEN | (flags & ACK_NOW));
            Frame.u8(to, toAt + O_BITS, tokenBits(from, fromAt));
            Frame.u8(to, toAt + O_RUN, tokenRun(from, fromAt));
            Frame.i64(to, toAt + O_TOKEN, tokenPulse(from, fromAt));
            Frame.i64(to, toAt + O_EFFECT, effectPulse(from, fromAt));
        }
        if ((flags & HAS_MARK) != 0) {
            addMark(to, toAt, markOf(from, fromAt), seenOf(from, fromAt));
        }
        if ((flags & HAS_NEED) != 0) {
            addNeed(to, toAt, needOf(from, fromAt));
        }
        return true;
    }

    /** Asks the receiver to acknowledge the section's tokens at once ({@link #ACK_NOW}); the section must carry one. */
    public static void requestAck(MemorySegment frame, long at) {
        Frame.u8(frame, at + O_FLAGS, flags(frame, at) | ACK_NOW);
    }

    /**
     * Adds the sender's pulse mark: nothing it stamps from now on is due at {@code mark + d} or earlier at the
     * receiver (d its distance). {@code seen} is the last token it has seen, the token manager's acknowledgement.
     */
    public static void addMark(MemorySegment frame, long at, long mark, long seen) {
        int flags = flags(frame, at);
        if ((flags & HAS_MARK) != 0) {
            mark = Math.max(mark, markOf(frame, at));
            seen = Math.max(seen, seenOf(frame, at));
        }
        Frame.u8(frame, at + O_FLAGS, flags | HAS_MARK);
        Frame.i64(frame, at + O_MARK, mark);
        Frame.i64(frame, at + O_SEEN, seen);
    }

    /** Adds a wake-up: logical time must reach {@code need} for the sender's work in flight. */
    public static void addNeed(MemorySegment frame, long at, long need) {
        int flags = flags(frame, at);
        if ((flags & HAS_NEED) != 0) {
            need = Math.max(need, needOf(frame, at));
        }
        Frame.u8(frame, at + O_FLAGS, flags | HAS_NEED);
        Frame.i64(frame, at + O_NEED, need);
    }

    /** How many tokens the section carries before {@link #tokenPulse}: its run is {@code tokenPulse - tokenRun ..}. */
    public static int tokenRun(MemorySegment frame, long at) {
        return Frame.u8(frame, at + O_RUN);
    }

    public static int tokenBits(MemorySegment frame, long at) {
        return Frame.u8(frame, at + O_BITS);
    }

    public static long tokenPulse(MemorySegment frame, long at) {
        return Frame.i64(frame, at + O_TOKEN);
    }

    public static long effectPulse(MemorySegment frame, long at) {
        return Frame.i64(frame, at + O_EFFECT);
    }

    public static long markOf(MemorySegment frame, long at) {
        return Frame.i64(frame, at + O_MARK);
    }

    public static long seenOf(MemorySegment frame, long at) {
        return Frame.i64(frame, at + O_SEEN);
    }

    public static long needOf(MemorySegment frame, long at) {
        return Frame.i64(frame, at + O_NEED);
    }
}
