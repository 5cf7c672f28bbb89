package org.portals3j.isotach.internal.siu;

import java.util.Arrays;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The senders of the entries each open pulse has at an SIU, in arrival order, in 256 buckets (one per one-byte TS):
 * what the pulse's end-of-pulse marker counts and orders (contract items 5 and 6); grows up to a bound, never past it.
 */
final class PulseEntries extends CacheLinePadding {
    /** {@link #add} results. */
    static final int ADDED = 0;
    /** The pulse's bucket still holds an open pulse (the horizon was overrun). */
    static final int BUCKET_IN_USE = 1;
    /** The pulse already holds the bound's number of entries. */
    static final int FULL = 2;

    private static final int BUCKETS = 256;
    private static final int INITIAL_BUCKET = 256;

    private final long[] bucketPulse = new long[BUCKETS];
    private final int[] bucketCount = new int[BUCKETS];
    private final int[][] bucketSenders = new int[BUCKETS][];
    /** Entries one pulse may hold ({@code IsotachConfig.bucketCapacity}). */
    private final int capacity;
    private long highestPulse = -1;

    PulseEntries(int capacity) {
        this.capacity = capacity;
        Arrays.fill(bucketPulse, -1);
    }

    /** Adds an entry from {@code sender} to {@code pulse}; pulses up to {@code lastClosed} are closed. */
    int add(long pulse, int sender, long lastClosed) {
        int b = (int) (pulse & 0xFF);
        if (bucketPulse[b] != pulse) {
            if (bucketPulse[b] > lastClosed) {
                return BUCKET_IN_USE;
            }
            bucketPulse[b] = pulse;
            bucketCount[b] = 0;
        }
        int n = bucketCount[b];
        if (n == capacity) {
            return FULL;
        }
        int[] senders = bucketSenders[b];
        if (senders == null || n == senders.length) {
            // Grows (rarely, and at most to the capacity) instead of reserving the bound for all 256 buckets.
            senders = senders == null ? new int[Math.min(capacity, INITIAL_BUCKET)]
                    : Arrays.copyOf(senders, (int) Math.min(capacity, 2L * n));
            bucketSenders[b] = senders;
        }
        senders[n] = sender;
        bucketCount[b] = n + 1;
        highestPulse = Math.max(highestPulse, pulse);
        return ADDED;
    }

    /** The pulse that holds {@code pulse}'s bucket (for a message when {@link #add} refused). */
    long pulseInBucketOf(long pulse) {
        return bucketPulse[(int) (pulse & 0xFF)];
    }

    /** The number of entries {@code pulse} has. */
    int count(long pulse) {
        int b = (int) (pulse & 0xFF);
        return bucketPulse[b] == pulse ? bucketCount[b] : 0;
    }

    /** Writes {@code pulse}'s sort vector, for its {@code count} entries (at most 32), into {@code out}. */
    void sortVector(long pulse, int count, byte[] out) {
        int[] senders = bucketSenders[(int) (pulse & 0xFF)];
        if (senders != null) {
            sortVector(senders, count, out);
        }
    }

    /** The largest pulse an entry was added to (-1 when none). */
    long highestPulse() {
        return highestPulse;
    }

    /** Indices 0..count-1 ordered by sender id, stable in arrival order (item 6). */
    static void sortVector(int[] senders, int count, byte[] out) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            int j = n;
            while (j > 0 && senders[out[j - 1]] > senders[i]) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = (byte) i;
            n++;
        }
    }
}
