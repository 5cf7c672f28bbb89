package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** An SIU's entries per open pulse: counts, the bucket per one-byte TS, the bound, and the sort vector (items 5, 6). */
class PulseEntriesTest {
    /** I-013, I-010: the sort vector is a permutation of 0..count-1 giving (sender id, arrival) order. */
    @Test
    void sortVectorIsAPermutationInSenderThenArrivalOrder() {
        Random rnd = new Random(13);
        for (int trial = 0; trial < 2000; trial++) {
            int count = 1 + rnd.nextInt(32);
            int[] senders = new int[count];
            for (int i = 0; i < count; i++) {
                senders[i] = rnd.nextInt(1 + rnd.nextInt(8));
            }
            byte[] out = new byte[32];
            PulseEntries.sortVector(senders, count, out);
            boolean[] seen = new boolean[count];
            for (int k = 0; k < count; k++) {
                int idx = out[k];
                assertThat(idx).isBetween(0, count - 1);
                assertThat(seen[idx]).as("index %d twice", idx).isFalse();
                seen[idx] = true;
                if (k > 0) {
                    int prev = out[k - 1];
                    assertThat(senders[idx]).isGreaterThanOrEqualTo(senders[prev]);
                    if (senders[idx] == senders[prev]) {
                        assertThat(idx).as("same sender keeps arrival order").isGreaterThan(prev);
                    }
                }
            }
        }
    }

    @Test
    void eachPulseCountsItsOwnEntriesAndSortsThemBySenderThenArrival() {
        PulseEntries entries = new PulseEntries(8);
        assertThat(entries.add(3, 2, -1)).isEqualTo(PulseEntries.ADDED);
        assertThat(entries.add(4, 0, -1)).isEqualTo(PulseEntries.ADDED);
        assertThat(entries.add(3, 1, -1)).isEqualTo(PulseEntries.ADDED);
        assertThat(entries.add(3, 2, -1)).isEqualTo(PulseEntries.ADDED);
        assertThat(entries.count(3)).isEqualTo(3);
        assertThat(entries.count(4)).isEqualTo(1);
        assertThat(entries.count(5)).isZero();
        assertThat(entries.highestPulse()).isEqualTo(4);
        byte[] out = new byte[32];
        entries.sortVector(3, 3, out);
        assertThat(new byte[] {out[0], out[1], out[2]}).containsExactly(1, 0, 2);
    }

    @Test
    void aClosedPulsesBucketIsReusedAndAnOpenOnesIsNot() {
        PulseEntries entries = new PulseEntries(8);
        entries.add(1, 0, -1);
        assertThat(entries.add(257, 0, 0)).as("pulse 1 is still open").isEqualTo(PulseEntries.BUCKET_IN_USE);
        assertThat(entries.pulseInBucketOf(257)).isEqualTo(1);
        assertThat(entries.add(257, 0, 1)).as("pulse 1 is closed").isEqualTo(PulseEntries.ADDED);
        assertThat(entries.count(257)).isEqualTo(1);
        assertThat(entries.count(1)).as("the bucket holds the new pulse only").isZero();
    }

    @Test
    void aPulseGrowsPastTheInitialBucketUpToTheBoundAndNoFurther() {
        PulseEntries entries = new PulseEntries(600);
        for (int k = 0; k < 600; k++) {
            assertThat(entries.add(7, k % 3, -1)).isEqualTo(PulseEntries.ADDED);
        }
        assertThat(entries.add(7, 0, -1)).isEqualTo(PulseEntries.FULL);
        assertThat(entries.count(7)).isEqualTo(600);
    }
}
