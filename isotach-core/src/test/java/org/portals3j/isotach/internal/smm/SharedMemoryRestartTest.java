package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.ASSIGN;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.READ;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.SCHEDULE;
import static org.portals3j.isotach.internal.smm.SharedReferenceKind.WRITE;
import static org.portals3j.isotach.internal.smm.SmmFixtures.config;
import static org.portals3j.isotach.internal.smm.SmmFixtures.region;

import org.junit.jupiter.api.Test;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.isotach.internal.smm.SmmFixtures.Observer;
import org.portals3j.isotach.internal.smm.SmmFixtures.Responder;
import org.portals3j.isotach.internal.smm.SmmFixtures.Seen;
import org.portals3j.isotach.internal.smm.SmmFixtures.Sent;

/**
 * Restartable execution (Isotach report §7.4.3, pp. 69-72; §7.4.4, pp. 69-72: shmem stops when a read response cannot
 * be sent and retries later): a refused response makes {@link SharedMemory#execute} return false; calling it again with
 * the same sRef only retries the owed responses, and the sRef is never applied twice.
 */
class SharedMemoryRestartTest {
    private final SharedMemory copy = new SharedMemory(0, 4, config(4, region(0, 8, 0, 1)));
    private final Responder responder = new Responder();
    private final Observer observer = new Observer();

    SharedMemoryRestartTest() {
        copy.observer(observer); // JUnit makes a fresh instance per test
    }

    @Test
    void aRefusedReadResponseIsRetriedWithoutExecutingTheReadAgain() {
        assertThat(copy.execute(WRITE, 1, 3, 5, 1, responder)).isTrue();
        responder.refuseAll();
        assertThat(copy.execute(READ, 2, 3, 0, 2, responder)).isFalse();
        assertThat(copy.execute(READ, 2, 3, 0, 2, responder)).isFalse();
        assertThat(responder.sent).isEmpty();
        responder.accept();
        assertThat(copy.execute(READ, 2, 3, 0, 2, responder)).isTrue();
        assertThat(responder.sent).containsExactly(new Sent(2, 0, 5, 2));
        assertThat(observer.seen).hasSize(2); // the write and the read, once each
        assertThat(copy.counters()).containsEntry("sref.read", 1L).containsEntry("response.deferred", 1L)
                .containsEntry("execute.refused", 2L).containsEntry("response.owedNow", 0L);
        // afterwards the next sRef executes normally
        assertThat(copy.execute(READ, 2, 3, 1, 3, responder)).isTrue();
        assertThat(responder.sent).hasSize(2);
    }

    /** An assign owing several responses: those refused are retried in order; the assign applies once. */
    @Test
    void anAssignWhoseResponsesAreRefusedPartwayFinishesThemInOrderOnRetry() {
        copy.execute(SCHEDULE, 1, 3, 0, 1, responder);
        for (int reader = 0; reader < 4; reader++) {
            copy.execute(READ, reader, 3, 10 + reader, 1, responder);
        }
        copy.execute(READ, 2, 3, 20, 1, responder);
        assertThat(copy.pendingReads()).isEqualTo(5);
        SharedMemory.ReadResponder twoThenRefuse = new SharedMemory.ReadResponder() {
            int calls;

            @Override
            public boolean respond(int reader, int readSlot, long value, long pulse) {
                return ++calls <= 2 && responder.respond(reader, readSlot, value, pulse);
            }
        };
        assertThat(copy.execute(ASSIGN, 1, 3, 9, 2, twoThenRefuse)).isFalse();
        assertThat(responder.sent).extracting(Sent::slot).containsExactly(10, 11);
        // the assign has applied: the variable is substantiated and the table is empty
        assertThat(copy.localValue(3)).isEqualTo(9);
        assertThat(copy.isUnsubstantiated(3)).isFalse();
        assertThat(copy.pendingReads()).isZero();
        responder.refuse = 1; // the first retry gets nowhere
        assertThat(copy.execute(ASSIGN, 1, 3, 9, 2, responder)).isFalse();
        assertThat(copy.execute(ASSIGN, 1, 3, 9, 2, responder)).isTrue();
        assertThat(responder.sent).extracting(Sent::slot).containsExactly(10, 11, 12, 13, 20);
        assertThat(responder.sent).allMatch(s -> s.value() == 9 && s.pulse() == 1);
        assertThat(observer.seen).filteredOn(s -> s.kind() == SharedMemoryObserver.ASSIGN).hasSize(1);
        assertThat(observer.seen).filteredOn(s -> s.kind() == SharedMemoryObserver.READ).hasSize(5);
        assertThat(copy.counters()).containsEntry("sref.assign", 1L).containsEntry("response.sent", 5L)
                .containsEntry("response.deferred", 3L);
    }

    /** The retry does not apply the sRef again: the assign is reported once and takes one sequence number. */
    @Test
    void aRetriedAssignIsReportedOnceAndTakesOneSequenceNumber() {
        copy.execute(SCHEDULE, 1, 3, 0, 1, responder);
        copy.execute(READ, 2, 3, 0, 1, responder);
        responder.refuseAll();
        assertThat(copy.execute(ASSIGN, 1, 3, 4, 2, responder)).isFalse();
        responder.accept();
        assertThat(copy.execute(ASSIGN, 1, 3, 4, 2, responder)).isTrue();
        assertThat(responder.sent).containsExactly(new Sent(2, 0, 4, 1));
        assertThat(observer.seen).extracting(Seen::sequence).containsExactlyInAnyOrder(0L, 1L, 2L);
    }

    /** While responses are owed, the engine must retry the same sRef; anything else is an engine bug. */
    @Test
    void executingADifferentSRefWhileResponsesAreOwedIsRefusedLoudly() {
        copy.execute(WRITE, 1, 3, 5, 1, responder);
        responder.refuseAll();
        assertThat(copy.execute(READ, 2, 3, 0, 2, responder)).isFalse();
        responder.accept();
        assertThatThrownBy(() -> copy.execute(WRITE, 1, 3, 6, 2, responder))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("same sRef must be retried");
        assertThatThrownBy(() -> copy.execute(READ, 2, 3, 0, 3, responder))
                .isInstanceOf(IllegalStateException.class);
        assertThat(copy.localValue(3)).isEqualTo(5);
        assertThat(copy.execute(READ, 2, 3, 0, 2, responder)).isTrue();
    }

    /** Changes owe no responses: they never return false, whatever the responder says. */
    @Test
    void changesWithoutPendingReadsNeverNeedTheResponder() {
        responder.refuseAll();
        assertThat(copy.execute(WRITE, 1, 3, 5, 1, responder)).isTrue();
        assertThat(copy.execute(SCHEDULE, 1, 3, 0, 1, responder)).isTrue();
        assertThat(copy.execute(ASSIGN, 1, 3, 6, 1, responder)).isTrue();
        assertThat(responder.refusals).isZero();
    }
}
