package org.portals3j.transport.udp.internal.reliability;

import java.util.Arrays;

/**
 * Anti-replay over one peer's 64-bit datagram counter (RFC 4303 3.4.3, RFC 6347 4.1.2.6): accepts a counter
 * at most once, and only within {@link #WIDTH} of the highest accepted. Counters compare modulo 2^64 (they
 * start at a random value and may wrap); the bitmap is a ring indexed by the counter's low bits (RFC 6479).
 *
 * <p>Used by the thread that runs the receive path only.
 */
public final class ReplayWindow {
    /**
     * Counter values below the highest accepted that are still told apart (see the udp package documentation,
     * "Replay protection"): 2^14 = 16384, a ring of 256 longs (2 KiB) per peer.
     */
    public static final int WIDTH = 1 << 14;
    private static final int WORDS = WIDTH / Long.SIZE;

    private final long[] seen = new long[WORDS];
    private long highest;
    private boolean any;

    /**
     * Whether {@code counter} is provably new: never accepted before and not older than the window. A new one
     * is recorded (a second call with it returns false).
     */
    public boolean accept(long counter) {
        if (!any) {
            any = true;
            highest = counter;
            mark(counter);
            return true;
        }
        long ahead = counter - highest; // modulo 2^64: wrapping needs no special case
        if (ahead > 0) {
            clearAbove(highest, ahead);
            highest = counter;
            mark(counter);
            return true;
        }
        if (ahead <= -WIDTH) {
            return false; // older than the window: cannot be told from a replay
        }
        int word = word(counter);
        long bit = 1L << counter; // Java masks the shift count to its low 6 bits
        if ((seen[word] & bit) != 0) {
            return false;
        }
        seen[word] |= bit;
        return true;
    }

    /** The highest counter accepted (meaningful once one was). */
    public long highest() {
        return highest;
    }

    private void mark(long counter) {
        seen[word(counter)] |= 1L << counter;
    }

    /** Forgets the ring positions of counters {@code (from, from + count]}, which now take them over. */
    private void clearAbove(long from, long count) {
        if (count >= WIDTH) {
            Arrays.fill(seen, 0L);
            return;
        }
        long next = from + 1;
        long left = count;
        while (left > 0) {
            int bit = (int) (next & (Long.SIZE - 1));
            int n = (int) Math.min(Long.SIZE - bit, left);
            long mask = n == Long.SIZE ? -1L : ((1L << n) - 1) << bit;
            seen[word(next)] &= ~mask;
            next += n;
            left -= n;
        }
    }

    private static int word(long counter) {
        return (int) ((counter >>> 6) & (WORDS - 1));
    }
}
