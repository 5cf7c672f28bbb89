package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.isotach.SharedMemoryObserver.ASSIGN;
import static org.portals3j.isotach.SharedMemoryObserver.READ;
import static org.portals3j.isotach.SharedMemoryObserver.SCHED;
import static org.portals3j.isotach.SharedMemoryObserver.WRITE;
import static org.portals3j.isotach.internal.smm.SmmFixtures.config;
import static org.portals3j.isotach.internal.smm.SmmFixtures.region;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.function.Predicate;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SmmHistory;
import org.portals3j.isotach.internal.smm.SmmSimulation.Obs;

/**
 * {@link SmmHistory}, the checker the randomised conformance test uses: it accepts the histories
 * {@link SharedMemory} produces under a simulated engine (I-079..I-090, G7) and rejects deliberately broken
 * ones with a message that names the violation.
 */
class SmmHistoryTest {
    /** 4 hosts: A replicated everywhere, B on hosts 1 and 2, C on host 3 only; distances make 2 nearer than 1. */
    private static final IsotachConfig CONFIG = config(3, region(0, 4, 0, 1, 2, 3), region(100, 3, 1, 2),
            region(200, 2, 3)).toBuilder().distances(new int[][] {
                {0, 3, 2, 4},
                {1, 0, 1, 1},
                {2, 1, 0, 1},
                {1, 2, 1, 0},
            }).build();
    private static final long[] ADDRESSES = {0, 1, 2, 3, 100, 101, 102, 200, 201};

    private static SmmSimulation simulate(long seed, double refuse) {
        SmmSimulation sim = new SmmSimulation(4, CONFIG, seed, refuse, ADDRESSES);
        sim.run(60, 4);
        return sim;
    }

    private static void assertRejected(SmmHistory h, String... fragments) {
        assertThatThrownBy(h::verify).isInstanceOf(AssertionError.class)
                .satisfies(e -> assertThat(String.valueOf(e.getMessage())).contains(fragments));
    }

    // ---- correct histories are accepted ----------------------------------------------------------------------------

    /**
     * I-079..I-084, I-086, I-087, I-090, G7: random traffic from 4 hosts over replicated, partly replicated and
     * unreplicated words, executed by real {@link SharedMemory} copies in isotach order with refused responses and
     * delayed, shuffled read responses, gives a history the checker accepts, with and without the issue log.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void acceptsRandomHistoriesProducedBySharedMemory(long seed) {
        SmmSimulation sim = simulate(seed, 0.2);
        assertThat(sim.observed).hasSizeGreaterThan(300);
        assertThat(sim.observed).anyMatch(o -> o.kind() == READ && o.value() != 0);
        assertThat(sim.refusals).isPositive();
        long pended = 0;
        for (SharedMemory m : sim.memory) {
            pended += m.counters().getOrDefault("read.pended", 0L);
        }
        assertThat(pended).as("reads that waited for an assign").isPositive();
        assertThatCode(() -> sim.history(sim.observed, true).verify()).doesNotThrowAnyException();
        assertThatCode(() -> sim.history(sim.observed, false).verify()).doesNotThrowAnyException();
    }

    /** The observer can be a live SmmHistory shared by all hosts: it is thread-safe. */
    @Test
    void collectsRecordsFromManyThreads() throws InterruptedException {
        SmmHistory h = new SmmHistory(4, CONFIG);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int copy = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int i = 0; i < 5000; i++) {
                    h.executed(copy, i, i, 0, WRITE, 0, i, i);
                }
            }));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(h.size()).isEqualTo(20_000);
        assertThatCode(h::verify).doesNotThrowAnyException();
    }

    // ---- hand-made broken histories ------------------------------------------------------------------------------

    /** I-079: a read that returns the value of an earlier write than its corresponding post is stale. */
    @Test
    void rejectsAReadReturningAStaleValue_I079() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 0, WRITE, 200, 5, 5);
        h.executed(3, 1, 2, 1, WRITE, 200, 7, 7);
        h.executed(3, 2, 3, 0, READ, 200, 0, 5);
        assertRejected(h, "READ by host 0 of address 200", "returned 5", "corresponding post is WRITE by host 1",
                "value 7", "stale");
    }

    /** I-090, G3: two copies that applied the same writes in different orders. */
    @Test
    void rejectsTwoCopiesApplyingChangesInDifferentOrders_I090() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(1, 0, 1, 1, WRITE, 100, 10, 10);
        h.executed(1, 1, 2, 2, WRITE, 100, 20, 20);
        h.executed(2, 0, 1, 2, WRITE, 100, 20, 20);
        h.executed(2, 1, 2, 1, WRITE, 100, 10, 10);
        assertRejected(h, "address 100: copies applied changes in different orders", "change #0",
                "WRITE by host 1 of address 100 value 10 at host 1",
                "WRITE by host 2 of address 100 value 20 at host 2");
    }

    /** I-090: a change one copy never applied. */
    @Test
    void rejectsACopyMissingAChange_I090() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(1, 0, 1, 1, WRITE, 100, 10, 10);
        h.executed(2, 0, 1, 1, WRITE, 100, 10, 10);
        h.executed(2, 1, 2, 1, WRITE, 100, 11, 11);
        assertRejected(h, "address 100", "host 1 lacks WRITE by host 1 of address 100 value 11");
    }

    /** Initial value: a read before any post returns 0. */
    @Test
    void rejectsAReadBeforeAnyPostReturningNonZero() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 3, READ, 201, 0, 4);
        h.executed(3, 1, 2, 0, WRITE, 201, 4, 4);
        assertRejected(h, "returned 4 before any post of the address: the initial value is 0");
    }

    /** I-080: a read whose corresponding post is a sched returns that sched's assign, by the same host. */
    @Test
    void rejectsAReadAfterASchedReturningAnotherAssignsValue_I080() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 1, SCHED, 200, 0, 1);
        h.executed(3, 1, 1, 2, SCHED, 200, 0, 2);
        h.executed(3, 2, 1, 3, READ, 200, 0, 10); // corresponding post: host 2's sched
        h.executed(3, 3, 2, 1, ASSIGN, 200, 10, 10);
        h.executed(3, 4, 2, 2, ASSIGN, 200, 20, 20);
        assertRejected(h, "returned 10, but its corresponding post SCHED by host 2", "with 20");
    }

    /** I-080: a read pending on a sched that was never assigned cannot have returned. */
    @Test
    void rejectsAReadAnsweredAlthoughItsSchedWasNeverAssigned_I080() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 1, SCHED, 200, 0, 1);
        h.executed(3, 1, 1, 3, READ, 200, 0, 0);
        assertRejected(h, "was never assigned: the read must wait for that assign");
    }

    /** I-084: reads pending on a sched get its assign's value, not that of a later write. */
    @Test
    void rejectsAPendingReadAnsweredWithALaterWritesValue_I084() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 1, SCHED, 200, 0, 1);
        h.executed(3, 1, 1, 3, READ, 200, 0, 9);
        h.executed(3, 2, 2, 0, WRITE, 200, 9, 9);
        h.executed(3, 3, 3, 1, ASSIGN, 200, 5, 5);
        assertRejected(h, "returned 9", "substantiated by ASSIGN by host 1", "with 5");
    }

    /** Isotach order at a copy: pulse, then sender id. */
    @Test
    void rejectsExecutionOutOfIsotachOrder() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 2, 0, WRITE, 200, 1, 1);
        h.executed(3, 1, 1, 0, WRITE, 200, 2, 2);
        h.executed(3, 2, 1, 1, WRITE, 201, 3, 3);
        h.executed(3, 3, 1, 0, WRITE, 201, 4, 4);
        assertRejected(h, "not isotach order at host 3: WRITE by host 0 of address 200 value 2",
                "not isotach order at host 3: WRITE by host 0 of address 201 value 4");
    }

    /** A sequence number seen twice (an sRef applied twice) or missing (a read left pending). */
    @Test
    void rejectsRepeatedAndMissingSequenceNumbers() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 0, WRITE, 200, 1, 1);
        h.executed(3, 0, 1, 0, WRITE, 200, 1, 1);
        h.executed(3, 2, 1, 0, WRITE, 200, 1, 1);
        assertRejected(h, "host 3 reported sequence 0 twice", "host 3 has no record with sequence 1");
    }

    /** I-087: a read goes to its reader's nearest copy; a change only to hosts holding a copy. */
    @Test
    void rejectsAReadAtAFartherCopyAndAnSRefWhereNoCopyIs_I087() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(1, 0, 1, 0, READ, 100, 0, 0); // host 0's nearest copy of B is host 2 (distance 2 < 3)
        h.executed(0, 0, 1, 0, WRITE, 100, 1, 1); // host 0 holds no copy of B
        assertRejected(h, "executed at host 1, but the nearest copy of host 0 is host 2",
                "host 0 executed an sRef on an address it holds no copy of");
    }

    /** I-092: the caveats, checked at the copies. */
    @Test
    void rejectsCaveatViolations_I092() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.executed(3, 0, 1, 1, SCHED, 200, 0, 1);
        h.executed(3, 1, 1, 1, SCHED, 200, 0, 1);
        h.executed(3, 2, 1, 2, ASSIGN, 201, 3, 3);
        h.executed(3, 3, 1, 2, SCHED, 201, 0, 1); // and a sched that stored the wrong vId
        h.executed(3, 4, 2, 1, ASSIGN, 200, 3, 3);
        h.executed(3, 5, 2, 2, ASSIGN, 201, 3, 3);
        assertRejected(h, "already had a sched outstanding", "had no sched outstanding",
                "stored vId 1, not its issuer 2");
    }

    /** With an issue log: every issued access executed at its copies, in issue order, and nothing else. */
    @Test
    void rejectsAccessesIssuedButNotExecutedOrExecutedButNotIssued() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.issued(3, WRITE, 200, 1);
        h.issued(3, WRITE, 200, 2);
        h.executed(3, 0, 1, 3, WRITE, 200, 2, 2);
        h.executed(3, 1, 1, 3, WRITE, 200, 1, 1); // issue order swapped
        h.executed(3, 2, 1, 3, WRITE, 201, 3, 3); // never issued
        h.issued(0, WRITE, 200, 5); // never executed
        assertRejected(h, "host 3's access #0 (WRITE of address 200 value 1) is missing at host 3 or out of issue "
                + "order: the next sRef from host 3 executed there is WRITE by host 3 of address 200 value 2",
                "never issued it", "host 0's access #0 (WRITE of address 200 value 5) "
                + "was never executed at host 3");
    }

    @Test
    void rejectsAnIssuedAccessToAnAddressThatIsNotSharedMemory_I088() {
        SmmHistory h = new SmmHistory(4, CONFIG);
        h.issued(0, WRITE, 50, 1);
        assertRejected(h, "names an address that is not shared memory: it should have failed (I-088)");
    }

    // ---- a real random history, broken in one place ---------------------------------------------------------------

    private static List<Obs> mutate(List<Obs> records, Predicate<Obs> which, Function<Obs, @Nullable Obs> change) {
        List<Obs> out = new ArrayList<>();
        boolean done = false;
        for (Obs o : records) {
            if (!done && which.test(o)) {
                @Nullable Obs c = change.apply(o);
                if (c != null) {
                    out.add(c);
                }
                done = true;
            } else {
                out.add(o);
            }
        }
        assertThat(done).as("a record to break").isTrue();
        return out;
    }

    @Test
    void rejectsARandomHistoryWithOneReadValueChanged() {
        SmmSimulation sim = simulate(11, 0.1);
        List<Obs> broken =
                mutate(sim.observed, o -> o.kind() == READ && o.value() != 0, o -> o.withValue(o.value() + 1));
        assertRejected(sim.history(broken, false), "READ by host", "returned");
        assertRejected(sim.history(broken, true), "READ by host", "returned");
    }

    @Test
    void rejectsARandomHistoryWithOneChangeLostAtOneCopy() {
        SmmSimulation sim = simulate(12, 0.1);
        // host 0 loses its first write of replicated address 0: a sequence gap, and copies that disagree
        Obs target = sim.observed.stream().filter(o -> o.copyHost() == 0 && o.address() == 0 && o.kind() == WRITE)
                .min((a, b) -> Long.compare(a.sequence(), b.sequence())).orElseThrow();
        List<Obs> broken = mutate(sim.observed, o -> o == target, o -> null);
        assertRejected(sim.history(broken, false), "host 0 has no record with sequence " + target.sequence(),
                "address 0: ");
        assertRejected(sim.history(broken, true), "(WRITE of address 0 value " + target.operand()
                + ") is missing at host 0");
    }

    @Test
    void rejectsARandomHistoryWhereOneCopySwappedTwoChanges() {
        SmmSimulation sim = simulate(13, 0.1);
        // find two consecutive changes of one replicated address at host 0 with different values; swap their order
        List<Obs> host0 = sim.observed.stream().filter(o -> o.copyHost() == 0 && o.address() == 0 && o.kind() == WRITE)
                .sorted((a, b) -> Long.compare(a.sequence(), b.sequence())).toList();
        @Nullable Obs a = null;
        @Nullable Obs b = null;
        for (int i = 0; i + 1 < host0.size(); i++) {
            if (host0.get(i).operand() != host0.get(i + 1).operand()) {
                a = host0.get(i);
                b = host0.get(i + 1);
                break;
            }
        }
        if (a == null || b == null) {
            throw new AssertionError("the simulation produced no two writes of address 0 to swap");
        }
        Obs fa = a;
        Obs fb = b;
        List<Obs> broken = new ArrayList<>();
        for (Obs o : sim.observed) {
            broken.add(o == fa ? o.withSequence(fb.sequence()) : o == fb ? o.withSequence(fa.sequence()) : o);
        }
        assertRejected(sim.history(broken, false), "address 0: copies applied changes in different orders");
    }

    @Test
    void rejectsARandomHistoryWhereTheApplicationGotAnotherValueThanTheCopySent() {
        SmmSimulation sim = simulate(14, 0.1);
        long[] r = sim.returned.get(sim.returned.size() / 2);
        r[2] += 1000;
        assertRejected(sim.history(sim.observed, true), "returned " + r[2] + " to the application");
    }

    @Test
    void rejectsARandomHistoryWithOneSRefAppliedTwice() {
        SmmSimulation sim = simulate(15, 0.1);
        List<Obs> broken = new ArrayList<>(sim.observed);
        Obs w = broken.stream().filter(o -> o.kind() == WRITE).findFirst().orElseThrow();
        broken.add(w);
        assertRejected(sim.history(broken, false), "reported sequence " + w.sequence() + " twice");
    }
}
