package org.portals3j.isotach.internal.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.isotach.internal.gc.BarrierTable.SUCCESS;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;

/**
 * Several hosts' barrier tables around a model token manager: channel c
 * completes once every host has sent one bs-marker for c since the previous completion, and the completion bit
 * reaches every host in the same pulse. The model fails the test if a host ever sends two markers for one
 * execution, so these tests also check that the tables' state machines keep exactly one participation per
 * host per execution - what makes barriers work at all (Isotach report §3.5.1, pp. 18-20).
 */
class BarrierTableGroupTest {

    private static final int APP = BarrierTable.APPLICATION_BARRIER;
    private static final int SHUT = BarrierTable.SHUTDOWN_BARRIER;

    /** The model TM and the hosts' tables. */
    static final class Group {
        final int hosts;
        final BarrierTable[] tables;
        final boolean[] full;
        /** joined[c][h]: host h has participated in the current execution of channel c. */
        final boolean[][] joined = new boolean[BarrierTable.NUM_BARRIERS][];
        final int[] completions = new int[BarrierTable.NUM_BARRIERS];

        Group(int hosts) {
            this.hosts = hosts;
            this.tables = new BarrierTable[hosts];
            this.full = new boolean[hosts];
            for (int c = 0; c < BarrierTable.NUM_BARRIERS; c++) {
                joined[c] = new boolean[hosts];
            }
            for (int h = 0; h < hosts; h++) {
                int host = h;
                tables[h] = new BarrierTable(2, (channel, count) -> {
                    if (full[host]) {
                        return false;
                    }
                    assertThat(joined[channel][host])
                            .as("host %d sent a second marker for one execution of channel %d", host, channel)
                            .isFalse();
                    joined[channel][host] = true;
                    return true;
                });
            }
        }

        void startAll() {
            for (BarrierTable t : tables) {
                t.start();
            }
        }

        /**
         * One pulse: every channel whose execution every host has joined completes; the EOP bits go to every
         * host. Returns the notice bits per host.
         */
        int[] pulse() {
            int bits = 0;
            for (int c = 0; c < BarrierTable.NUM_BARRIERS; c++) {
                boolean all = true;
                for (boolean j : joined[c]) {
                    all &= j;
                }
                if (all) {
                    bits |= BarrierTable.wireBit(c);
                    Arrays.fill(joined[c], false);
                    completions[c]++;
                }
            }
            int[] notices = new int[hosts];
            for (int h = 0; h < hosts; h++) {
                notices[h] = tables[h].notify(bits);
                tables[h].poll();
            }
            return notices;
        }
    }

    /** I-069: unregistered hosts participate automatically, never block, get no notice; I-070 repeatable. */
    @Test
    void unregisteredHostsNeverBlockACompletionAndAreNeverNotified_I069_I070() {
        Group g = new Group(3);
        g.startAll();
        assertThat(g.tables[0].register(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
        // Host 0 registered while its unclaimed participation was out: the old execution completes masked.
        assertThat(g.pulse()).containsExactly(0, 0, 0);
        assertThat(g.tables[0].state(APP)).isEqualTo(BarrierState.HOLDING);
        for (int round = 0; round < 4; round++) {
            assertThat(g.tables[0].barrier(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
            assertThat(g.pulse()).as("round %d", round).containsExactly(0x02, 0, 0);
        }
        assertThat(g.completions[APP]).isEqualTo(5);
    }

    /** I-066, I-067: a completion needs every registered host's call, and is reported at all of them together. */
    @Test
    void completionWaitsForEveryParticipantAndIsReportedInOnePulseAtAll_I066_I067() {
        Group g = new Group(4);
        for (int h = 0; h < 3; h++) {
            assertThat(g.tables[h].register(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS); // before start: HOLDING
        }
        g.startAll(); // host 3 (unclaimed) sends its participation
        assertThat(g.tables[0].barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
        assertThat(g.pulse()).containsExactly(0, 0, 0, 0);
        assertThat(g.tables[2].barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
        assertThat(g.pulse()).as("host 1 has not called iso_barrier").containsExactly(0, 0, 0, 0);
        assertThat(g.completions[APP]).isZero();
        assertThat(g.tables[1].barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
        assertThat(g.pulse()).containsExactly(0x02, 0x02, 0x02, 0);
        assertThat(g.completions[APP]).isEqualTo(1);
    }

    /**
     * I-071: a host registers while an unclaimed execution is outstanding and calls iso_barrier at once; its
     * participation goes out after the old execution, and only its own execution is reported.
     */
    @Test
    void registeringDuringAnUnclaimedExecutionReportsOnlyTheApplicationsExecution_I071() {
        Group g = new Group(3);
        g.startAll();
        assertThat(g.tables[1].register(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
        assertThat(g.tables[1].barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
        assertThat(g.tables[1].state(APP)).isEqualTo(BarrierState.READY);
        assertThat(g.pulse()).as("old unclaimed execution: masked").containsExactly(0, 0, 0);
        assertThat(g.pulse()).as("the application's execution").containsExactly(0, 0x02, 0);
        assertThat(g.pulse()).as("nothing more until the next call").containsExactly(0, 0, 0);
        assertThat(g.completions[APP]).isEqualTo(2);
    }

    /** I-072: after clear the host goes on participating, so the others still complete; it gets no notices. */
    @Test
    void aClearedHostKeepsParticipatingAndStopsBeingNotified_I072() {
        Group g = new Group(2);
        for (BarrierTable t : g.tables) {
            t.register(APP, BarrierMode.WEAK);
        }
        g.startAll();
        g.tables[0].barrier(APP, BarrierMode.WEAK);
        g.tables[1].barrier(APP, BarrierMode.WEAK);
        assertThat(g.pulse()).containsExactly(0x02, 0x02);
        assertThat(g.tables[1].clear(APP)).isEqualTo(SUCCESS);
        for (int round = 0; round < 3; round++) {
            g.tables[0].barrier(APP, BarrierMode.WEAK);
            assertThat(g.pulse()).containsExactly(0x02, 0);
        }
    }

    /** The shutdown barrier (try_close_net): completes once every host called it, then nothing more happens. */
    @Test
    void theShutdownBarrierCompletesOnceEveryHostJoinedAndDoesNotRestart() {
        Group g = new Group(3);
        g.startAll();
        g.tables[2].mLayerBarrier(SHUT);
        g.pulse();
        g.tables[0].mLayerBarrier(SHUT);
        g.pulse();
        for (BarrierTable t : g.tables) {
            assertThat(t.mLayerCompleted(SHUT)).isFalse();
        }
        g.tables[1].mLayerBarrier(SHUT);
        assertThat(g.pulse()).as("never an application notice").containsExactly(0, 0, 0);
        for (BarrierTable t : g.tables) {
            assertThat(t.mLayerCompleted(SHUT)).isTrue();
            assertThat(t.state(SHUT)).isEqualTo(BarrierState.HOLDING);
        }
        for (int i = 0; i < 3; i++) {
            g.pulse();
        }
        assertThat(g.completions[SHUT]).as("no second shutdown execution").isEqualTo(1);
    }

    /**
     * Masked completions never reach the application (I-069, I-071, I-072) and every notice answers one
     * successful iso_barrier (I-066, I-070): random register / clear / barrier / full buffers / pulses on three
     * hosts, checked against what each application asked for. Seeded, so a failure reproduces.
     */
    @Test
    void randomRunsNeverReportAMaskedCompletionNorLoseAnApplicationOne() {
        for (long seed = 1; seed <= 40; seed++) {
            runRandom(seed);
        }
    }

    private static void runRandom(long seed) {
        Random rnd = new Random(seed);
        Group g = new Group(3);
        g.startAll();
        // outstanding[h]: host h's application called iso_barrier successfully and has had no notice yet.
        boolean[] outstanding = new boolean[g.hosts];
        List<String> log = new ArrayList<>();
        for (int step = 0; step < 2000; step++) {
            int h = rnd.nextInt(g.hosts);
            BarrierTable t = g.tables[h];
            int op = rnd.nextInt(10);
            String what = "seed " + seed + " step " + step + " host " + h + " op " + op;
            log.add(what);
            switch (op) {
                case 0 -> t.register(APP, rnd.nextBoolean() ? BarrierMode.WEAK : BarrierMode.STRONG);
                case 1 -> {
                    if (rnd.nextInt(4) == 0 && t.clear(APP) == SUCCESS) {
                        outstanding[h] = false; // a cleared channel's pending execution is no longer reported
                    }
                }
                case 2, 3, 4 -> {
                    if (t.owner(APP) == Owner.APPLICATION) {
                        BarrierMode mode = t.mode(APP) == InternalBarrierMode.WEAK ? BarrierMode.WEAK
                                : BarrierMode.STRONG;
                        int rc = t.barrier(APP, mode);
                        assertThat(rc == SUCCESS).as(what + ": barrier succeeds iff nothing outstanding")
                                .isEqualTo(!outstanding[h]);
                        outstanding[h] = true;
                    }
                }
                case 5 -> g.full[h] = !g.full[h];
                default -> {
                    int[] notices = g.pulse();
                    for (int k = 0; k < g.hosts; k++) {
                        if (notices[k] != 0) {
                            assertThat(outstanding[k]).as(what + ": notice at host %d without a call", k).isTrue();
                            assertThat(g.tables[k].owner(APP)).isEqualTo(Owner.APPLICATION);
                            outstanding[k] = false;
                        }
                    }
                }
            }
            for (BarrierTable x : g.tables) {
                BarrierState s = x.state(APP);
                if (x.owner(APP) == Owner.UNCLAIMED) {
                    assertThat(s).as(what + ": unclaimed is SEND or NOT_HOLDING")
                            .isIn(BarrierState.SEND, BarrierState.NOT_HOLDING);
                }
            }
        }
        // Liveness: buffers free and every application participates whenever it may; each gets notices.
        Arrays.fill(g.full, false);
        int[] drained = new int[g.hosts];
        for (int round = 0; round < 10; round++) {
            for (int h = 0; h < g.hosts; h++) {
                BarrierTable t = g.tables[h];
                if (t.owner(APP) == Owner.APPLICATION && !outstanding[h]) {
                    BarrierMode mode = t.mode(APP) == InternalBarrierMode.WEAK ? BarrierMode.WEAK : BarrierMode.STRONG;
                    assertThat(t.barrier(APP, mode)).isEqualTo(SUCCESS);
                    outstanding[h] = true;
                }
            }
            int[] notices = g.pulse();
            for (int k = 0; k < g.hosts; k++) {
                if (notices[k] != 0) {
                    assertThat(outstanding[k]).isTrue();
                    outstanding[k] = false;
                    drained[k]++;
                }
            }
        }
        for (int h = 0; h < g.hosts; h++) {
            if (g.tables[h].owner(APP) == Owner.APPLICATION) {
                assertThat(drained[h]).as("seed %d: host %d keeps completing barriers", seed, h).isGreaterThan(3);
            } else {
                assertThat(drained[h]).isZero();
            }
        }
        assertThat(g.completions[APP]).as("seed %d: executions keep completing", seed).isGreaterThan(0);
    }
}
