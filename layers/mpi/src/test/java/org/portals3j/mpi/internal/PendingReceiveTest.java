package org.portals3j.mpi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Receives of at most the copy limit wait on the engine's pending list, not as match entries: they still take
 * messages in posting order (with each other and with receives posted as entries), with wildcards, truncation,
 * cancellation and rendezvous. Rank 0 sends to rank 1 over inmem, in order.
 */
class PendingReceiveTest {
    private static final int CONTEXT = 0;
    private static final int TAG = 7;
    private static final int OTHER_TAG = 8;
    /** A receive above the copy limit: posted as a match entry when no receive is pending. */
    private static final int LARGE = 2 * (int) Receives.COPY_LIMIT;

    @Test
    void pendingReceivesOfOneSourceAndTagTakeTheMessagesInOrder() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation[] r = new ReceiveOperation[4];
            for (int i = 0; i < r.length; i++) {
                r[i] = receiver(arena, 0, TAG, 8);
                rank1.startReceive(r[i]);
                assertThat(r[i].state).isEqualTo(ReceiveOperation.State.PENDING);
            }
            for (int i = 0; i < r.length; i++) {
                send(rank0, arena, TAG, 10 + i, 8);
            }
            for (int i = 0; i < r.length; i++) {
                rank1.await(r[i]);
                assertThat(r[i].buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(10 + i);
                assertThat(r[i].source()).isZero();
                assertThat(r[i].tag()).isEqualTo(TAG);
            }
        });
    }

    @Test
    void anEarlierWildcardReceiveTakesTheMessageBeforeALaterExactOne() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation anyTag = new ReceiveOperation(arena.allocate(8), MatchBits.of(CONTEXT, 0, 0),
                    MatchBits.ignore(false, true), null);
            rank1.startReceive(anyTag);
            ReceiveOperation exact = receiver(arena, 0, TAG, 8);
            rank1.startReceive(exact);
            ReceiveOperation anySource = new ReceiveOperation(arena.allocate(8), MatchBits.of(CONTEXT, 0, OTHER_TAG),
                    MatchBits.ignore(true, false), null);
            rank1.startReceive(anySource);
            send(rank0, arena, TAG, 1, 8);
            send(rank0, arena, OTHER_TAG, 2, 8);
            send(rank0, arena, TAG, 3, 8);
            rank1.await(anyTag);
            rank1.await(anySource);
            rank1.await(exact);
            assertThat(anyTag.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);
            assertThat(anyTag.tag()).isEqualTo(TAG);
            assertThat(anySource.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
            assertThat(anySource.source()).isZero();
            assertThat(exact.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(3);
        });
    }

    @Test
    void aPendingReceiveTruncatesALongerMessage() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation small = receiver(arena, 0, TAG, 4);
            rank1.startReceive(small);
            send(rank0, arena, TAG, 5, 64);
            rank1.await(small);
            assertThat(small.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(5);
            assertThat(small.bytes()).isEqualTo(4);
            assertThat(small.errorClass()).isEqualTo(ErrorClass.TRUNCATE);
        });
    }

    @Test
    void aReceivePostedAfterAPendingOneWaitsBehindItWhateverItsSize() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation small = receiver(arena, 0, TAG, 8);
            rank1.startReceive(small);
            ReceiveOperation large = receiver(arena, 0, TAG, LARGE);
            rank1.startReceive(large);
            assertThat(large.state).isEqualTo(ReceiveOperation.State.PENDING);
            send(rank0, arena, TAG, 1, 8);
            send(rank0, arena, TAG, 2, LARGE);
            rank1.await(small);
            rank1.await(large);
            assertThat(small.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);
            assertThat(large.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
            assertThat(large.bytes()).isEqualTo(LARGE);
        });
    }

    @Test
    void aMatchEntryPostedBeforeAPendingReceiveTakesTheMessageFirst() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation large = receiver(arena, 0, TAG, LARGE);
            rank1.startReceive(large);
            assertThat(large.state).isEqualTo(ReceiveOperation.State.POSTED);
            ReceiveOperation small = receiver(arena, 0, TAG, 8);
            rank1.startReceive(small);
            send(rank0, arena, TAG, 1, 8);
            send(rank0, arena, TAG, 2, 8);
            rank1.await(large);
            rank1.await(small);
            assertThat(large.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);
            assertThat(large.bytes()).isEqualTo(8);
            assertThat(small.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
        });
    }

    @Test
    void aCancelledPendingReceiveTakesNoMessageAndTheNextReceiveFindsItUnexpected() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation first = receiver(arena, 0, TAG, 8);
            rank1.startReceive(first);
            ReceiveOperation cancelled = receiver(arena, 0, TAG, 8);
            rank1.startReceive(cancelled);
            ReceiveOperation last = receiver(arena, 0, OTHER_TAG, 8);
            rank1.startReceive(last);
            assertThat(rank1.cancel(cancelled)).isTrue();
            assertThat(cancelled.isCancelled()).isTrue();
            assertThat(rank1.cancel(cancelled)).isFalse();
            send(rank0, arena, TAG, 1, 8);
            send(rank0, arena, TAG, 2, 8);
            send(rank0, arena, OTHER_TAG, 3, 8);
            rank1.await(first);
            rank1.await(last);
            assertThat(first.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);
            assertThat(last.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(3);
            assertThat(cancelled.bytes()).isZero();
            ReceiveOperation late = receiver(arena, 0, TAG, 8);
            rank1.receive(late);
            assertThat(late.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
        });
    }

    @Test
    void aPendingReceiveTakesAnUnexpectedMessageAtOnceAndARendezvousOneByGet() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            send(rank0, arena, TAG, 1, 8);
            ReceiveOperation early = receiver(arena, 0, TAG, 8);
            rank1.receive(early);
            assertThat(early.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);
            ReceiveOperation pending = receiver(arena, 0, TAG, 8);
            rank1.startReceive(pending);
            MemorySegment buffer = arena.allocate(8);
            buffer.set(ValueLayout.JAVA_INT, 0, 2);
            SendOperation synchronous = new SendOperation(buffer);
            rank0.startSend(synchronous, 1, MatchBits.of(CONTEXT, 0, TAG), true); // by rendezvous
            rank1.await(pending);
            rank0.await(synchronous);
            assertThat(pending.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
            assertThat(pending.bytes()).isEqualTo(8);
            assertThat(synchronous.errorClass()).isEqualTo(ErrorClass.SUCCESS);
        });
    }

    private static ReceiveOperation receiver(Arena arena, int source, int tag, int bytes) {
        return new ReceiveOperation(arena.allocate(bytes), MatchBits.of(CONTEXT, source, tag),
                MatchBits.ignore(false, false), null);
    }

    /** Rank 0 sends {@code bytes} bytes starting with the int {@code value}, with tag {@code tag}, and waits. */
    private static void send(PointToPoint rank0, Arena arena, int tag, int value, int bytes) {
        MemorySegment buffer = arena.allocate(bytes);
        buffer.set(ValueLayout.JAVA_INT, 0, value);
        SendOperation op = new SendOperation(buffer);
        rank0.startSend(op, 1, MatchBits.of(CONTEXT, 0, tag), false);
        rank0.await(op);
        assertThat(op.errorClass()).isEqualTo(ErrorClass.SUCCESS);
    }
}
