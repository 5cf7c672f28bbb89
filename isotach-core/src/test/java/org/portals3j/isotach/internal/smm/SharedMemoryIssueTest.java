package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.ASSIGN;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.READ;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.SCHEDULE;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.WRITE;
import static org.portals3j.isotach.internal.smm.SmmFixtures.config;
import static org.portals3j.isotach.internal.smm.SmmFixtures.region;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedRegion;

/** The issuing side: routing (I-087, I-088), the caveats (I-092), read_cap (I-089) and lvar slots (I-085). */
class SharedMemoryIssueTest {

    // ---- routing ------------------------------------------------------------------------------------------------

    /**
     * I-087 (Isotach report §3.4, pp. 14-18): a change goes to every copy, listed ascending; I-088: an unknown address
     * fails.
     */
    @Test
    void copiesListsTheCopysetAscendingAndMinusOneForAnAddressOutsideSharedMemory_I087_I088() {
        IsotachConfig c = config(1, region(100, 10, 3, 0, 2), region(0, 4, 1));
        SharedMemory m = new SharedMemory(1, 4, c);
        int[] out = new int[4];
        assertThat(m.copies(100, out)).isEqualTo(3);
        assertThat(out).startsWith(0, 2, 3);
        assertThat(m.copies(109, out)).isEqualTo(3);
        assertThat(m.copies(3, out)).isEqualTo(1);
        assertThat(out[0]).isEqualTo(1);
        for (long bad : new long[] {-1, 4, 99, 110, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertThat(m.copies(bad, out)).as("address %d", bad).isEqualTo(-1);
            assertThat(m.nearestCopy(bad)).as("address %d", bad).isEqualTo(-1);
            assertThat(m.checkChange(WRITE, bad)).as("address %d", bad).isEqualTo(SharedMemory.FAILURE);
        }
        assertThat(m.map().maxCopies()).isEqualTo(3);
        assertThatThrownBy(() -> m.copies(100, new int[2])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 hosts");
    }

    /** The default layout: one 4096-word region replicated on every host. */
    @Test
    void theDefaultLayoutReplicatesOneRegionOnEveryHost() {
        SharedMemory m = new SharedMemory(2, 3, IsotachConfig.defaults());
        int[] out = new int[3];
        assertThat(m.copies(0, out)).isEqualTo(3);
        assertThat(out).containsExactly(0, 1, 2);
        assertThat(m.copies(4095, out)).isEqualTo(3);
        assertThat(m.copies(4096, out)).isEqualTo(-1);
        assertThat(m.nearestCopy(17)).isEqualTo(2);
    }

    /** I-086, I-087: a host holding a copy reads it locally, however near another copy is. */
    @Test
    void nearestCopyIsThisHostWhenItHoldsACopy_I086_I087() {
        int[][] d = {{0, 1, 1}, {1, 0, 1}, {9, 1, 0}};
        IsotachConfig c = config(1, region(0, 8, 0, 2)).toBuilder().distances(d).build();
        assertThat(new SharedMemory(2, 3, c).nearestCopy(3)).isEqualTo(2);
        assertThat(new SharedMemory(0, 3, c).nearestCopy(3)).isEqualTo(0);
    }

    /**
     * I-087 (Isotach report §3.4.1, pp. 14-18): otherwise the copy at the smallest logical distance from this host,
     * ties to the lowest id.
     */
    @Test
    void nearestCopyIsTheSmallestDistanceTiesToTheLowestId_I087() {
        int[][] d = {
            {0, 5, 3, 3, 2},
            {5, 0, 1, 1, 1},
            {3, 1, 0, 1, 1},
            {3, 1, 1, 0, 1},
            {9, 4, 2, 2, 0},
        };
        IsotachConfig c = config(1, region(0, 8, 1, 2, 3), region(8, 8, 3, 2)).toBuilder().distances(d).build();
        assertThat(new SharedMemory(0, 5, c).nearestCopy(0)).isEqualTo(2); // 3 ties 3: lowest id
        assertThat(new SharedMemory(0, 5, c).nearestCopy(9)).isEqualTo(2);
        assertThat(new SharedMemory(4, 5, c).nearestCopy(0)).isEqualTo(2); // distance 2 vs 4 vs 2
        // distances are directional: host 4 -> 1 is 4 although 1 -> 4 is 1
        int[][] d2 = {{0, 2, 1}, {1, 0, 1}, {1, 1, 0}};
        IsotachConfig c2 = config(1, region(0, 8, 1, 2)).toBuilder().distances(d2).build();
        assertThat(new SharedMemory(0, 3, c2).nearestCopy(5)).isEqualTo(2);
        int[][] d3 = {{0, 1, 2}, {1, 0, 1}, {1, 1, 0}};
        IsotachConfig c3 = config(1, region(0, 8, 1, 2)).toBuilder().distances(d3).build();
        assertThat(new SharedMemory(0, 3, c3).nearestCopy(5)).isEqualTo(1);
    }

    /** Many regions with gaps between them: every boundary is looked up right. */
    @Test
    void regionLookupFindsEveryBoundaryAcrossGaps() {
        SharedRegion[] regions = new SharedRegion[20];
        for (int i = 0; i < regions.length; i++) {
            regions[i] = region(1000L * (regions.length - i), 10 + i, i % 3); // given out of order on purpose
        }
        SharedMap map = new SharedMap(0, 3, config(1, regions));
        for (int i = 0; i < regions.length; i++) {
            long base = regions[i].base();
            int r = map.regionOf(base);
            assertThat(r).isNotNegative();
            assertThat(map.base(r)).isEqualTo(base);
            assertThat(map.regionOf(base + regions[i].words() - 1)).isEqualTo(r);
            assertThat(map.regionOf(base + regions[i].words())).isEqualTo(-1);
            assertThat(map.regionOf(base - 1)).isEqualTo(-1);
            assertThat(map.nearestCopy(base)).isEqualTo(i % 3);
        }
    }

    @Test
    void overlappingRegionsCopysetsNamingNoHostAndOversizedTablesAreRejected() {
        assertThatThrownBy(() -> new SharedMemory(0, 2, config(1, region(0, 10, 0), region(9, 5, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlaps");
        assertThatThrownBy(() -> new SharedMemory(0, 2, config(1, region(0, 10, 0, 2))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names host 2");
        assertThatThrownBy(() -> new SharedMemory(2, 2, IsotachConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class);
        IsotachConfig huge = config(SharedMemory.MAX_PENDING / 4 + 1, region(0, 1, 0));
        assertThatThrownBy(() -> new SharedMemory(0, 4, huge)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too many to preallocate");
        // adjacent regions are fine
        assertThat(new SharedMemory(0, 2, config(1, region(0, 10, 0), region(10, 5, 1))).nearestCopy(10)).isEqualTo(1);
    }

    // ---- caveats (I-092) ------------------------------------------------------------------------------------------

    /**
     * I-092 (Isotach report App. A.6, pp. 99-100): a second sched by this host before its assign is refused; after the
     * assign it is allowed.
     */
    @Test
    void aSecondSchedBeforeTheAssignIsRefused_I092() {
        SharedMemory m = new SharedMemory(0, 2, config(1, region(0, 8, 0, 1)));
        assertThat(m.checkChange(SCHEDULE, 3)).isEqualTo(SharedMemory.SUCCESS);
        m.noteIssued(SCHEDULE, 3);
        assertThat(m.checkChange(SCHEDULE, 3)).isEqualTo(SharedMemory.FAILURE);
        assertThat(m.checkChange(SCHEDULE, 4)).isEqualTo(SharedMemory.SUCCESS); // per address
        assertThat(m.checkChange(ASSIGN, 3)).isEqualTo(SharedMemory.SUCCESS);
        m.noteIssued(ASSIGN, 3);
        assertThat(m.checkChange(SCHEDULE, 3)).isEqualTo(SharedMemory.SUCCESS);
        assertThat(m.counters()).containsEntry("issue.changesRefused", 1L);
    }

    /** I-092 (Isotach report App. A.6, pp. 99-100): an assign without an outstanding sched is refused. */
    @Test
    void anAssignWithoutAnOutstandingSchedIsRefused_I092() {
        SharedMemory m = new SharedMemory(0, 2, config(1, region(0, 8, 1)));
        assertThat(m.checkChange(ASSIGN, 0)).isEqualTo(SharedMemory.FAILURE);
        m.noteIssued(SCHEDULE, 0); // caveat state exists for addresses without a local copy too
        assertThat(m.checkChange(ASSIGN, 0)).isEqualTo(SharedMemory.SUCCESS);
        m.noteIssued(ASSIGN, 0);
        assertThat(m.checkChange(ASSIGN, 0)).isEqualTo(SharedMemory.FAILURE);
    }

    /**
     * A write is a sched and its assign issued together (Isotach report §3.4, pp. 14-18; App. A.6, pp. 99-100): never
     * an outstanding sched, so it is allowed whether or not one is outstanding and neither opens nor closes one.
     */
    @Test
    void aWriteIsAllowedWithOrWithoutAnOutstandingSchedAndLeavesTheCaveatStateAlone_I092() {
        SharedMemory m = new SharedMemory(0, 2, config(1, region(0, 8, 0, 1)));
        assertThat(m.checkChange(WRITE, 1)).isEqualTo(SharedMemory.SUCCESS);
        m.noteIssued(WRITE, 1);
        assertThat(m.checkChange(ASSIGN, 1)).isEqualTo(SharedMemory.FAILURE);
        m.noteIssued(SCHEDULE, 1);
        assertThat(m.checkChange(WRITE, 1)).isEqualTo(SharedMemory.SUCCESS);
        m.noteIssued(WRITE, 1);
        assertThat(m.checkChange(ASSIGN, 1)).isEqualTo(SharedMemory.SUCCESS);
        assertThat(m.checkChange(SCHEDULE, 1)).isEqualTo(SharedMemory.FAILURE);
    }

    @Test
    void misuseOfTheCaveatCallsIsAnEngineBug() {
        SharedMemory m = new SharedMemory(0, 2, config(1, region(0, 8, 0, 1)));
        assertThatThrownBy(() -> m.checkChange(READ, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.noteIssued(ASSIGN, 0)).isInstanceOf(IllegalStateException.class);
        m.noteIssued(SCHEDULE, 0);
        assertThatThrownBy(() -> m.noteIssued(SCHEDULE, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> m.noteIssued(WRITE, 8)).isInstanceOf(IllegalArgumentException.class);
        m.noteIssued(READ, 0); // a read has no caveat state
        assertThat(m.checkChange(ASSIGN, 0)).isEqualTo(SharedMemory.SUCCESS);
    }

    // ---- read_cap and lvar slots ----------------------------------------------------------------------------------

    /**
     * I-089 (Isotach report App. A.6, pp. 99-100): with read_cap reads outstanding a read fails and leaves its lvar
     * alone.
     */
    @Test
    void aReadFailsWhenReadCapReadsAreOutstanding_I089() {
        SharedMemory m = new SharedMemory(0, 2, config(3, region(0, 8, 1)));
        IsoVar[] vars = {new IsoVar(), new IsoVar(), new IsoVar()};
        int[] slots = new int[3];
        for (int i = 0; i < 3; i++) {
            slots[i] = m.allocateRead(vars[i]);
            assertThat(slots[i]).isNotNegative();
        }
        assertThat(slots).doesNotHaveDuplicates();
        assertThat(m.outstandingReads()).isEqualTo(3);
        IsoVar fourth = new IsoVar();
        fourth.fill(77, 9);
        assertThat(m.allocateRead(fourth)).isEqualTo(-1);
        assertThat(fourth.isValid()).isTrue();
        assertThat(fourth.value()).isEqualTo(77);
        assertThat(m.counters()).containsEntry("issue.readsRefusedAtCap", 1L);
        m.completeRead(slots[1], 5, 2);
        assertThat(m.outstandingReads()).isEqualTo(2);
        assertThat(m.allocateRead(fourth)).isNotNegative();
        assertThat(fourth.isValid()).isFalse();
    }

    /**
     * I-085 (Isotach report §3.4, pp. 14-18; §6.6.2, p. 54): a read invalidates its lvar; the response fills value and
     * read pulse.
     */
    @Test
    void aReadInvalidatesItsLvarAndTheResponseFillsIt_I085() {
        SharedMemory m = new SharedMemory(0, 2, config(2, region(0, 8, 1)));
        IsoVar lvar = new IsoVar();
        lvar.fill(1, 1);
        int slot = m.allocateRead(lvar);
        assertThat(lvar.isValid()).isFalse();
        assertThat(lvar.readPulse()).isEqualTo(-1);
        m.completeRead(slot, 42, 17);
        assertThat(lvar.isValid()).isTrue();
        assertThat(lvar.value()).isEqualTo(42);
        assertThat(lvar.readPulse()).isEqualTo(17);
        assertThat(m.outstandingReads()).isZero();
        assertThat(m.counters()).containsEntry("response.completed", 1L);
    }

    /** A response naming no outstanding read (hostile, duplicated or stale) is ignored and counted. */
    @Test
    void responsesForSlotsThatAreNotOutstandingAreIgnoredAndCounted() {
        SharedMemory m = new SharedMemory(0, 2, config(4, region(0, 8, 1)));
        IsoVar a = new IsoVar();
        int slotA = m.allocateRead(a);
        m.completeRead(slotA, 1, 1);
        m.completeRead(slotA, 2, 2); // duplicate
        assertThat(a.value()).isEqualTo(1);
        IsoVar b = new IsoVar();
        int slotB = m.allocateRead(b); // reuses the freed index with a new generation
        assertThat(slotB).isNotEqualTo(slotA);
        m.completeRead(slotA, 3, 3); // stale: the old generation of the same index
        assertThat(b.isValid()).isFalse();
        m.completeRead(-1, 4, 4);
        m.completeRead(Integer.MAX_VALUE, 4, 4);
        m.completeRead(3, 4, 4); // index 3 was never allocated
        assertThat(b.isValid()).isFalse();
        assertThat(m.outstandingReads()).isEqualTo(1);
        assertThat(m.counters()).containsEntry("response.hostile", 5L);
        m.completeRead(slotB, 6, 6);
        assertThat(b.value()).isEqualTo(6);
    }

    /**
     * Isotach report App. A.6, pp. 99-100: iso_retrieve waits for the most recent read naming the lvar. Reusing an lvar
     * whose read is still outstanding detaches the old read: its response no longer fills the lvar, but it still holds
     * its slot.
     */
    @Test
    void reusingAnLvarWhileItsReadIsOutstandingKeepsOnlyTheNewestReadsValue() {
        SharedMemory m = new SharedMemory(0, 2, config(2, region(0, 8, 1)));
        IsoVar lvar = new IsoVar();
        int first = m.allocateRead(lvar);
        int second = m.allocateRead(lvar);
        assertThat(m.outstandingReads()).isEqualTo(2);
        assertThat(m.allocateRead(new IsoVar())).isEqualTo(-1); // the detached read still counts (I-089)
        m.completeRead(first, 11, 1);
        assertThat(lvar.isValid()).isFalse();
        assertThat(m.outstandingReads()).isEqualTo(1);
        m.completeRead(second, 22, 2);
        assertThat(lvar.value()).isEqualTo(22);
        assertThat(m.counters()).containsEntry("issue.lvarReusedWhileOutstanding", 1L)
                .containsEntry("response.toReusedLvar", 1L);
    }

    /** Slot ids stay distinct and non-negative across many generations, for read_cap 1 as well. */
    @Test
    void slotIdsOfSuccessiveReadsOfOneIndexDiffer() {
        for (int cap : List.of(1, 2, 3, 64)) {
            SharedMemory m = new SharedMemory(0, 2, config(cap, region(0, 8, 1)));
            int previous = -1;
            for (int i = 0; i < 1000; i++) {
                IsoVar v = new IsoVar();
                int s = m.allocateRead(v);
                assertThat(s).isNotNegative().isNotEqualTo(previous);
                m.completeRead(previous, 0, 0); // the previous id is stale now
                m.completeRead(s, i, i);
                assertThat(v.value()).isEqualTo(i);
                previous = s;
            }
        }
    }

    @Test
    void sRefKindCodesAreTheReportsSubtypes() {
        assertThat(SharedReferenceKind.READ.code()).isEqualTo(0x11);
        assertThat(SharedReferenceKind.WRITE.code()).isEqualTo(0x12);
        assertThat(SharedReferenceKind.ASSIGN.code()).isEqualTo(0x13);
        assertThat(SharedReferenceKind.SCHEDULE.code()).isEqualTo(0x14);
        for (SharedReferenceKind k : SharedReferenceKind.values()) {
            assertThat((Object) SharedReferenceKind.of(k.code())).isSameAs(k);
        }
        assertThat((Object) SharedReferenceKind.of(0x10)).isNull();
        assertThat((Object) SharedReferenceKind.of(0x15)).isNull();
        assertThat((Object) SharedReferenceKind.of(-1)).isNull();
    }
}
