package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.ASSIGN;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.READ;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.SCHEDULE;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.WRITE;
import static org.portals3j.isotach.internal.smm.SmmFixtures.config;
import static org.portals3j.isotach.internal.smm.SmmFixtures.region;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.isotach.internal.smm.SmmFixtures.Observer;
import org.portals3j.isotach.internal.smm.SmmFixtures.Responder;
import org.portals3j.isotach.internal.smm.SmmFixtures.Seen;
import org.portals3j.isotach.internal.smm.SmmFixtures.Sent;

/**
 * The execute path of the shared-memory manager (Isotach report §3.4, pp. 14-18; §7.4.5,
 * pp. 69-72), driven in a chosen isotach order as the engine would: host 0 holds the copy of region [0, 16) and
 * executes sRefs from hosts 0-3 of a 4-host job.
 */
class SharedMemoryExecuteTest {
    private static final long V = 5;
    private final IsotachConfig config = config(4, region(0, 16, 0, 1, 2, 3));
    private final SharedMemory copy = new SharedMemory(0, 4, config);
    private final Responder responder = new Responder();
    private final Observer observer = new Observer();

    SharedMemoryExecuteTest() {
        copy.observer(observer); // JUnit makes a fresh instance per test
    }

    private void exec(SharedReferenceKind kind, int source, long operand, long pulse) {
        assertThat(copy.execute(kind, source, V, operand, pulse, responder)).as("%s from %d", kind, source).isTrue();
    }

    /** I-079 (Isotach report §3.4, pp. 14-18) and initial value: a read before any post returns 0. */
    @Test
    void readOfAWordNeverPostedReturnsZero_I079() {
        exec(READ, 2, 7, 1);
        assertThat(responder.sent).containsExactly(new Sent(2, 7, 0, 1));
        assertThat(observer.last()).isEqualTo(new Seen(0, 0, 1, 2, SharedMemoryObserver.READ, V, 7, 0));
    }

    /**
     * I-079 (Isotach report §3.4, pp. 14-18): a read returns the value of the last write preceding it in isotach order.
     */
    @Test
    void readReturnsTheValueOfItsCorrespondingWrite_I079() {
        exec(WRITE, 1, 10, 1);
        exec(READ, 2, 0, 1);
        exec(WRITE, 3, 30, 1);
        exec(READ, 2, 1, 2);
        assertThat(responder.sent).containsExactly(new Sent(2, 0, 10, 1), new Sent(2, 1, 30, 2));
        assertThat(copy.localValue(V)).isEqualTo(30);
    }

    /**
     * I-083 (Isotach report §3.4, pp. 14-18): sched by p leaves V unsubstantiated with vId p; write substantiates it.
     */
    @Test
    void schedMakesTheVariableUnsubstantiatedWithTheIssuersIdAndWriteSubstantiatesIt_I083() {
        exec(SCHEDULE, 3, 0, 1);
        assertThat(copy.isUnsubstantiated(V)).isTrue();
        assertThat(copy.localValue(V)).isEqualTo(3);
        assertThat(observer.last().value()).isEqualTo(3);
        exec(WRITE, 1, 44, 2);
        assertThat(copy.isUnsubstantiated(V)).isFalse();
        assertThat(copy.localValue(V)).isEqualTo(44);
    }

    /**
     * I-080, I-081 (Isotach report §3.4, pp. 14-18): a read after a sched pends as one entry and is answered with the
     * matching assign's value when that assign executes, not before, and with the read's own pulse.
     */
    @Test
    void readOfAnUnsubstantiatedVariablePendsUntilTheMatchingAssign_I080_I081() {
        exec(SCHEDULE, 1, 0, 1);
        exec(READ, 2, 6, 1);
        assertThat(responder.sent).isEmpty();
        assertThat(copy.pendingReads()).isEqualTo(1);
        assertThat(observer.seen).hasSize(1); // the read's value is not known yet
        exec(WRITE, 3, 99, 2); // a later post does not answer it (I-084)
        assertThat(responder.sent).isEmpty();
        exec(ASSIGN, 1, 55, 4);
        assertThat(responder.sent).containsExactly(new Sent(2, 6, 55, 1));
        assertThat(copy.pendingReads()).isZero();
        // the read is reported after the assign, with its own execution position and pulse
        assertThat(observer.seen).extracting(Seen::kind).containsExactly(SharedMemoryObserver.SCHED,
                SharedMemoryObserver.WRITE, SharedMemoryObserver.ASSIGN, SharedMemoryObserver.READ);
        assertThat(observer.last()).isEqualTo(new Seen(0, 1, 1, 2, SharedMemoryObserver.READ, V, 6, 55));
    }

    /** I-080: another host's assign does not answer a read pending on host 1's sched. */
    @Test
    void anAssignOfAnotherVidDoesNotAnswerTheRead_I080() {
        exec(SCHEDULE, 2, 0, 1);
        exec(SCHEDULE, 1, 0, 1); // V's last post: vId 1
        exec(READ, 3, 0, 1);
        exec(ASSIGN, 2, 20, 2);
        assertThat(responder.sent).isEmpty();
        assertThat(copy.isUnsubstantiated(V)).isTrue();
        exec(ASSIGN, 1, 10, 2);
        assertThat(responder.sent).containsExactly(new Sent(3, 0, 10, 1));
    }

    /**
     * I-082 (Isotach report §3.4, pp. 14-18): a matching assign substantiates V; a non-matching one leaves V unchanged
     * but still answers the reads pending on its own vId.
     */
    @Test
    void aNonMatchingAssignLeavesTheVariableButAnswersItsPendingReads_I082() {
        exec(SCHEDULE, 1, 0, 1);
        exec(READ, 3, 0, 1); // pends on (V, 1)
        exec(SCHEDULE, 2, 0, 2);
        exec(READ, 3, 1, 2); // pends on (V, 2)
        exec(ASSIGN, 1, 10, 3);
        assertThat(copy.isUnsubstantiated(V)).isTrue();
        assertThat(copy.localValue(V)).isEqualTo(2); // still vId 2
        assertThat(responder.sent).containsExactly(new Sent(3, 0, 10, 1));
        assertThat(copy.counters()).containsEntry("sref.assignSubstantiating", 0L);
        exec(ASSIGN, 2, 20, 3);
        assertThat(copy.isUnsubstantiated(V)).isFalse();
        assertThat(copy.localValue(V)).isEqualTo(20);
        assertThat(responder.sent).containsExactly(new Sent(3, 0, 10, 1), new Sent(3, 1, 20, 2));
        assertThat(copy.counters()).containsEntry("sref.assignSubstantiating", 1L);
    }

    /**
     * I-084 (Isotach report §3.4, pp. 14-18): reads pending on (V, vId) get the assign's value even after a later write
     * changed V.
     */
    @Test
    void pendingReadsGetTheAssignsValueEvenAfterALaterWrite_I084() {
        exec(SCHEDULE, 1, 0, 1);
        exec(READ, 2, 0, 1);
        exec(READ, 3, 0, 1);
        exec(WRITE, 3, 70, 2);
        exec(READ, 2, 1, 2); // after the write: answered at once with 70
        assertThat(responder.sent).containsExactly(new Sent(2, 1, 70, 2));
        exec(ASSIGN, 1, 50, 3);
        assertThat(responder.sent).containsExactly(new Sent(2, 1, 70, 2), new Sent(2, 0, 50, 1),
                new Sent(3, 0, 50, 1));
        assertThat(copy.localValue(V)).isEqualTo(70); // the write is the last post: the assign stores nothing
        assertThat(copy.isUnsubstantiated(V)).isFalse();
    }

    /**
     * Write = sched + assign issued together (Isotach report §3.4, pp. 14-18; App. A.6, pp. 99-100): its vId is never
     * visible, so a write by the host whose sched is outstanding does not answer the reads pending on that sched; the
     * sched's own assign does.
     */
    @Test
    void aWriteDoesNotAnswerReadsPendingOnASchedOfTheSameHost() {
        exec(SCHEDULE, 1, 0, 1);
        exec(READ, 2, 0, 1); // pends on (V, 1)
        exec(WRITE, 1, 7, 2);
        assertThat(responder.sent).isEmpty();
        assertThat(copy.pendingReads()).isEqualTo(1);
        exec(READ, 2, 1, 2);
        assertThat(responder.sent).containsExactly(new Sent(2, 1, 7, 2));
        exec(ASSIGN, 1, 5, 3);
        assertThat(responder.sent).containsExactly(new Sent(2, 1, 7, 2), new Sent(2, 0, 5, 1));
        assertThat(copy.localValue(V)).isEqualTo(7);
    }

    /** I-081: every read of the unsubstantiated variable pends, each answered once; the table empties. */
    @Test
    void manyReadsPendingOnOneSchedAreAllAnsweredInExecutionOrder_I081() {
        exec(SCHEDULE, 1, 0, 1);
        for (int reader = 0; reader < 4; reader++) {
            for (int slot = 0; slot < 4; slot++) {
                exec(READ, reader, slot, 1 + slot);
            }
        }
        // hosts * read_cap: the table's bound (Isotach report §3.4, pp. 14-18)
        assertThat(copy.pendingReads()).isEqualTo(16);
        exec(ASSIGN, 1, 8, 9);
        assertThat(responder.sent).hasSize(16).allMatch(s -> s.value() == 8);
        List<Sent> expected = new ArrayList<>();
        for (int reader = 0; reader < 4; reader++) {
            for (int slot = 0; slot < 4; slot++) {
                expected.add(new Sent(reader, slot, 8, 1 + slot));
            }
        }
        assertThat(responder.sent).containsExactlyElementsOf(expected);
        assertThat(copy.pendingReads()).isZero();
        exec(ASSIGN, 1, 9, 10); // a second assign has nothing left to answer
        assertThat(responder.sent).hasSize(16);
    }

    /** The table is bounded per reader (read_cap, I-089): a reader over its cap is dropped and counted. */
    @Test
    void aReaderOverItsReadCapAtThisCopyIsDroppedNotQueued() {
        exec(SCHEDULE, 1, 0, 1);
        for (int slot = 0; slot < 4; slot++) {
            exec(READ, 2, slot, 1);
        }
        exec(READ, 2, 4, 1); // a fifth pending read from host 2: it broke read_cap = 4
        exec(READ, 3, 0, 1); // another reader still has its share
        assertThat(copy.pendingReads()).isEqualTo(5);
        assertThat(copy.counters()).containsEntry("read.droppedOverCap", 1L);
        exec(ASSIGN, 1, 1, 2);
        assertThat(responder.sent).extracting(Sent::slot).containsExactly(0, 1, 2, 3, 0);
        // the dropped read consumed no sequence number: the records are numbered without gap
        assertThat(observer.seen).extracting(Seen::sequence).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L);
    }

    /**
     * I-086 (Isotach report §3.4, pp. 14-18; §7.4.5, pp. 69-72): a read of a local substantiated copy goes to the
     * responder for this host at once.
     */
    @Test
    void aLocalReadIsAnsweredLocallyAndFillsTheLvarAtOnce_I086() {
        IsoVar lvar = new IsoVar();
        int slot = copy.allocateRead(lvar);
        exec(WRITE, 2, 12, 1);
        List<Sent> network = new ArrayList<>();
        SharedMemory.ReadResponder engine = (reader, s, value, pulse) -> {
            if (reader == 0) {
                copy.completeRead(s, value, pulse);
            } else {
                network.add(new Sent(reader, s, value, pulse));
            }
            return true;
        };
        assertThat(copy.execute(READ, 0, V, slot, 3, engine)).isTrue();
        assertThat(network).isEmpty();
        assertThat(lvar.isValid()).isTrue();
        assertThat(lvar.value()).isEqualTo(12);
        assertThat(lvar.readPulse()).isEqualTo(3);
        assertThat(copy.outstandingReads()).isZero();
    }

    /** I-086, I-080: a local read of an unsubstantiated copy is answered locally when the assign executes. */
    @Test
    void aLocalReadOfAnUnsubstantiatedCopyIsAnsweredWhenTheAssignExecutes_I086() {
        IsoVar lvar = new IsoVar();
        int slot = copy.allocateRead(lvar);
        SharedMemory.ReadResponder engine = (reader, s, value, pulse) -> {
            assertThat(reader).isZero();
            copy.completeRead(s, value, pulse);
            return true;
        };
        assertThat(copy.execute(SCHEDULE, 0, V, 0, 1, engine)).isTrue();
        assertThat(copy.execute(READ, 0, V, slot, 1, engine)).isTrue();
        assertThat(lvar.isValid()).isFalse();
        assertThat(copy.execute(ASSIGN, 0, V, -4, 2, engine)).isTrue();
        assertThat(lvar.isValid()).isTrue();
        assertThat(lvar.value()).isEqualTo(-4);
        assertThat(lvar.readPulse()).isEqualTo(1);
    }

    /** Every executed sRef is reported once, numbered in execution order. */
    @Test
    void theObserverSeesEverySRefOnceNumberedInExecutionOrder() {
        exec(WRITE, 1, 1, 1);
        exec(SCHEDULE, 2, 0, 1);
        exec(READ, 3, 0, 2);
        exec(ASSIGN, 2, 4, 3);
        exec(READ, 3, 1, 3);
        assertThat(observer.seen).containsExactly(
                new Seen(0, 0, 1, 1, SharedMemoryObserver.WRITE, V, 1, 1),
                new Seen(0, 1, 1, 2, SharedMemoryObserver.SCHED, V, 0, 2),
                new Seen(0, 3, 3, 2, SharedMemoryObserver.ASSIGN, V, 4, 4),
                new Seen(0, 2, 2, 3, SharedMemoryObserver.READ, V, 0, 4),
                new Seen(0, 4, 3, 3, SharedMemoryObserver.READ, V, 1, 4));
        assertThat(copy.counters()).containsEntry("sref.read", 2L).containsEntry("sref.write", 1L)
                .containsEntry("sref.sched", 1L).containsEntry("sref.assign", 1L).containsEntry("read.pended", 1L);
    }

    /** An sRef this host cannot execute is a protocol violation by its sender: dropped and counted. */
    @Test
    void sRefsThisHostCannotExecuteAreDroppedAndCounted() {
        SharedMemory other = new SharedMemory(1, 4, config(4, region(0, 16, 0), region(32, 4, 1)));
        other.observer(observer);
        assertThat(other.execute(WRITE, 0, 5, 1, 1, responder)).isTrue(); // no local copy of 5
        assertThat(other.execute(WRITE, 0, 100, 1, 1, responder)).isTrue(); // not shared memory
        assertThat(other.execute(WRITE, 4, 32, 1, 1, responder)).isTrue(); // source outside the job
        assertThat(other.execute(WRITE, -1, 32, 1, 1, responder)).isTrue();
        assertThat(other.execute(READ, 0, 32, -1, 1, responder)).isTrue(); // not a slot id
        assertThat(other.execute(READ, 0, 32, 1L << 40, 1, responder)).isTrue();
        assertThat(other.counters()).containsEntry("sref.rejected", 6L);
        assertThat(observer.seen).isEmpty();
        assertThat(responder.sent).isEmpty();
        assertThat(other.localValue(32)).isZero();
        assertThat(other.execute(WRITE, 0, 32, 1, 1, responder)).isTrue();
        assertThat(observer.last().sequence()).isZero(); // rejected sRefs took no sequence number
    }

    /**
     * I-090 (Isotach report §1.1.1, pp. 1-2; §3.4, pp. 14-18): copies that execute the same sRefs in the same isotach
     * order apply the same changes, answer reads alike and hold the same values.
     */
    @Test
    void copiesExecutingTheSameOrderAgree_I090() {
        IsotachConfig c = config(8, region(0, 4, 0, 1, 2));
        SharedMemory[] copies = {new SharedMemory(0, 3, c), new SharedMemory(1, 3, c), new SharedMemory(2, 3, c)};
        Observer[] obs = {new Observer(), new Observer(), new Observer()};
        Responder[] resp = {new Responder(), new Responder(), new Responder()};
        for (int i = 0; i < 3; i++) {
            copies[i].observer(obs[i]);
        }
        Random random = new Random(42);
        boolean[][] open = new boolean[3][4];
        for (int pulse = 0; pulse < 200; pulse++) {
            int source = random.nextInt(3);
            long address = random.nextInt(4);
            SharedReferenceKind kind;
            int k = random.nextInt(4);
            if (k == 0) {
                kind = SCHEDULE;
                if (open[source][(int) address]) {
                    kind = ASSIGN;
                }
            } else if (k == 1 && open[source][(int) address]) {
                kind = ASSIGN;
            } else {
                kind = WRITE;
            }
            if (kind == SCHEDULE) {
                open[source][(int) address] = true;
            } else if (kind == ASSIGN) {
                open[source][(int) address] = false;
            }
            long operand = random.nextInt(1000);
            for (int i = 0; i < 3; i++) {
                assertThat(copies[i].execute(kind, source, address, operand, pulse, resp[i])).isTrue();
            }
        }
        assertThat(obs[1].changes()).isEqualTo(obs[0].changes()).hasSize(200);
        assertThat(obs[2].changes()).isEqualTo(obs[0].changes());
        for (long a = 0; a < 4; a++) {
            assertThat(copies[1].localValue(a)).isEqualTo(copies[0].localValue(a));
            assertThat(copies[2].localValue(a)).isEqualTo(copies[0].localValue(a));
            assertThat(copies[1].isUnsubstantiated(a)).isEqualTo(copies[0].isUnsubstantiated(a));
        }
    }

    /** The counters' names are a public surface ({@code IsotachNet.counters()}): all there, each once. */
    @Test
    void countersHaveEveryNameOfTheLayer() {
        assertThat(copy.counters()).containsOnlyKeys("sref.read", "sref.write", "sref.sched", "sref.assign",
                "sref.assignSubstantiating", "sref.rejected", "read.pended", "read.answeredFromPending",
                "read.pendingNow", "read.pendingPeak", "read.droppedOverCap", "response.sent", "response.deferred",
                "response.owedNow", "execute.refused", "response.completed", "response.toReusedLvar",
                "response.hostile", "issue.readsOutstanding", "issue.readsRefusedAtCap",
                "issue.lvarReusedWhileOutstanding", "issue.changesRefused");
    }

    /** localValue names a local copy only. */
    @Test
    void localValueOfAnAddressWithoutALocalCopyThrows() {
        SharedMemory other = new SharedMemory(1, 2, config(1, region(0, 4, 0)));
        Assertions.assertThatThrownBy(() -> other.localValue(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds no copy");
        Assertions.assertThatThrownBy(() -> other.localValue(9))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
