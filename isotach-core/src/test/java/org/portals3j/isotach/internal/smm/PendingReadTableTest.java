package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The pending-read table (Isotach report §3.4, pp. 14-18; §7.4.5, pp. 69-72): a preallocated hash table keyed by
 * (address, vId).
 */
class PendingReadTableTest {

    private static List<Integer> drainSlots(PendingReadTable t, long address, int vId) {
        List<Integer> slots = new ArrayList<>();
        for (int e = t.take(address, vId); e >= 0; e = t.take(address, vId)) {
            slots.add(t.slot(e));
            t.free(e);
        }
        return slots;
    }

    /** Reads pending on one key come out oldest first, with the fields they went in with. */
    @Test
    void entriesOfOneKeyComeOutInInsertionOrderWithTheirFields() {
        PendingReadTable t = new PendingReadTable(8);
        assertThat(t.add(40, 2, 3, 100, 7, 70)).isTrue();
        assertThat(t.add(40, 2, 1, 101, 8, 71)).isTrue();
        int e = t.take(40, 2);
        assertThat(t.reader(e)).isEqualTo(3);
        assertThat(t.slot(e)).isEqualTo(100);
        assertThat(t.pulse(e)).isEqualTo(7);
        assertThat(t.sequence(e)).isEqualTo(70);
        t.free(e);
        e = t.take(40, 2);
        assertThat(t.reader(e)).isEqualTo(1);
        assertThat(t.slot(e)).isEqualTo(101);
        t.free(e);
        assertThat(t.take(40, 2)).isEqualTo(-1);
        assertThat(t.size()).isZero();
    }

    /** With one bucket every key collides: keys stay apart, and removal from head, middle and tail is right. */
    @Test
    void collidingKeysInOneChainStayApart() {
        PendingReadTable t = new PendingReadTable(16, 1);
        // interleave three keys: (1, 0), (1, 1), (2, 0)
        for (int i = 0; i < 4; i++) {
            t.add(1, 0, 0, 10 + i, 0, 0);
            t.add(1, 1, 0, 20 + i, 0, 0);
            t.add(2, 0, 0, 30 + i, 0, 0);
        }
        assertThat(t.size()).isEqualTo(12);
        assertThat(drainSlots(t, 1, 1)).containsExactly(20, 21, 22, 23); // middle entries
        assertThat(t.contains(1, 1)).isFalse();
        assertThat(t.contains(1, 0)).isTrue();
        assertThat(drainSlots(t, 2, 0)).containsExactly(30, 31, 32, 33); // includes the tail
        t.add(2, 0, 0, 34, 0, 0); // appended after the tail moved back
        t.add(1, 0, 0, 14, 0, 0);
        assertThat(drainSlots(t, 1, 0)).containsExactly(10, 11, 12, 13, 14); // includes the head
        assertThat(drainSlots(t, 2, 0)).containsExactly(34);
        assertThat(t.size()).isZero();
        assertThat(t.take(3, 0)).isEqualTo(-1);
    }

    /** One address, many vIds (one per host): each assign answers only its own vId. */
    @Test
    void manyVidsOnOneAddressAreSeparated() {
        int hosts = 200;
        PendingReadTable t = new PendingReadTable(hosts * 2);
        for (int round = 0; round < 2; round++) {
            for (int vId = 0; vId < hosts; vId++) {
                assertThat(t.add(7, vId, vId, vId * 10 + round, round, 0)).isTrue();
            }
        }
        for (int vId = hosts - 1; vId >= 0; vId--) {
            assertThat(drainSlots(t, 7, vId)).containsExactly(vId * 10, vId * 10 + 1);
            assertThat(t.size()).isEqualTo(vId * 2);
        }
    }

    /**
     * The table is bounded (n * read_cap entries, Isotach report §3.4, pp. 14-18): when full, add refuses; freed
     * entries are reused.
     */
    @Test
    void aFullTableRefusesAndFreedEntriesAreReused() {
        PendingReadTable t = new PendingReadTable(3);
        assertThat(t.add(1, 1, 0, 0, 0, 0)).isTrue();
        assertThat(t.add(2, 1, 0, 1, 0, 0)).isTrue();
        assertThat(t.add(3, 1, 0, 2, 0, 0)).isTrue();
        assertThat(t.add(4, 1, 0, 3, 0, 0)).isFalse();
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.contains(4, 1)).isFalse();
        assertThat(drainSlots(t, 2, 1)).containsExactly(1);
        assertThat(t.add(4, 1, 0, 3, 0, 0)).isTrue();
        assertThat(t.add(5, 1, 0, 4, 0, 0)).isFalse();
        assertThat(drainSlots(t, 4, 1)).containsExactly(3);
        assertThat(t.capacity()).isEqualTo(3);
    }

    /** A random workload against a simple model: the table never loses, invents or reorders an entry. */
    @Test
    void randomAddsAndTakesMatchAListModel() {
        Random random = new Random(7);
        for (int buckets : new int[] {1, 4, 64}) {
            PendingReadTable t = new PendingReadTable(50, buckets);
            List<long[]> model = new ArrayList<>(); // {address, vId, slot}
            int nextSlot = 0;
            for (int step = 0; step < 20_000; step++) {
                long address = random.nextInt(6) - 2L;
                int vId = random.nextInt(4);
                if (random.nextBoolean()) {
                    boolean added = t.add(address, vId, 0, nextSlot, 0, 0);
                    assertThat(added).isEqualTo(model.size() < 50);
                    if (added) {
                        model.add(new long[] {address, vId, nextSlot});
                    }
                    nextSlot++;
                } else {
                    int e = t.take(address, vId);
                    long[] expected = model.stream().filter(m -> m[0] == address && m[1] == vId).findFirst()
                            .orElse(null);
                    if (expected == null) {
                        assertThat(e).isEqualTo(-1);
                    } else {
                        assertThat(t.slot(e)).isEqualTo((int) expected[2]);
                        t.free(e);
                        model.remove(expected);
                    }
                }
                assertThat(t.size()).isEqualTo(model.size());
            }
        }
    }

    /**
     * A real hash table: consecutive addresses and small vIds, the common keys, spread over the buckets, so a
     * chain stays short (a linear table, as in the report's v.1, would be one chain).
     */
    @Test
    void consecutiveAddressesAndSmallVidsSpreadOverTheBuckets() {
        PendingReadTable t = new PendingReadTable(4096);
        assertThat(t.buckets()).isEqualTo(8192);
        for (int a = 0; a < 1024; a++) {
            for (int vId = 0; vId < 4; vId++) {
                t.add(a, vId, 0, 0, 0, 0);
            }
        }
        // with 4096 keys over 8192 buckets, a fair hash gives chains of a handful; a bad one gives hundreds
        assertThat(t.longestChain()).isLessThanOrEqualTo(8);
    }

    @Test
    void invalidShapesAreRejected() {
        assertThatThrownBy(() -> new PendingReadTable(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PendingReadTable(4, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
