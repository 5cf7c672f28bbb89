package org.portals3j.mpi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * The entry a matched receive leaves idle for the next receive of the same bits: inactive, it takes no message; it is
 * switched on only when no other receive is posted, so receives still match in the order they were posted; a receive
 * that reuses it gets its own buffer, truncation and cancellation. Rank 0 sends to rank 1 over inmem, in order, into
 * receives above the copy limit (smaller ones wait on the pending list, not as entries).
 */
class IdleEntryTest {
    private static final int CONTEXT = 0;
    private static final int TAG = 7;
    private static final int OTHER_TAG = 8;
    /** Receives and messages of this many bytes are posted as entries ({@link Receives#COPY_LIMIT}). */
    private static final int SIZE = 2 * (int) Receives.COPY_LIMIT;
    /** A receive that a message of {@link #SIZE} overflows, still posted as an entry. */
    private static final int SMALLER = SIZE - 512;

    @Test
    void anIdleEntryTakesNoMessage() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            receiveOne(rank0, rank1, arena, TAG, 1); // leaves its entry idle
            send(rank0, arena, TAG, 2, SIZE);
            // the message was not deposited into the idle entry's buffer: it waits as unexpected
            assertThat(rank1.probe(MatchBits.of(CONTEXT, 0, TAG), MatchBits.ignore(false, false))).isNotNull();
            ReceiveOperation r = receiver(arena, TAG, SIZE);
            rank1.receive(r);
            assertThat(r.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
        });
    }

    @Test
    void aReceivePostedBehindAnotherDoesNotTakeTheIdleEntryAheadOfIt() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            ReceiveOperation first = receiver(arena, TAG, SIZE);
            rank1.startReceive(first);
            ReceiveOperation anyTag = new ReceiveOperation(arena.allocate(SIZE), MatchBits.of(CONTEXT, 0, 0),
                    MatchBits.ignore(false, true), null);
            rank1.startReceive(anyTag);
            send(rank0, arena, TAG, 1, SIZE);
            rank1.await(first); // its entry, idle now, stands ahead of anyTag's
            ReceiveOperation exact = receiver(arena, TAG, SIZE);
            rank1.startReceive(exact);
            send(rank0, arena, TAG, 2, SIZE);
            send(rank0, arena, TAG, 3, SIZE);
            rank1.await(anyTag);
            rank1.await(exact);
            assertThat(first.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(1);
            assertThat(anyTag.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
            assertThat(exact.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(3);
        });
    }

    @Test
    void aReceiveReusingTheIdleEntryGetsItsOwnBufferAndTruncation() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            receiveOne(rank0, rank1, arena, TAG, 1);
            ReceiveOperation small = receiver(arena, TAG, SMALLER);
            rank1.startReceive(small);
            send(rank0, arena, TAG, 2, SIZE);
            rank1.await(small);
            assertThat(small.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(2);
            assertThat(small.bytes()).isEqualTo(SMALLER);
            assertThat(small.errorClass()).isEqualTo(ErrorClass.TRUNCATE);
            ReceiveOperation next = receiver(arena, TAG, SIZE);
            rank1.startReceive(next);
            send(rank0, arena, TAG, 3, SIZE);
            rank1.await(next);
            assertThat(next.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(3);
            assertThat(next.bytes()).isEqualTo(SIZE);
            assertThat(next.errorClass()).isEqualTo(ErrorClass.SUCCESS);
        });
    }

    @Test
    void anotherPatternTakesTheIdlePlaceAndACancelledReceiveOnItTakesNoMessage() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            receiveOne(rank0, rank1, arena, TAG, 1);
            receiveOne(rank0, rank1, arena, OTHER_TAG, 2); // its entry replaces the idle one of TAG
            ReceiveOperation cancelled = receiver(arena, OTHER_TAG, SIZE);
            rank1.startReceive(cancelled);
            assertThat(rank1.cancel(cancelled)).isTrue();
            send(rank0, arena, TAG, 3, SIZE);
            send(rank0, arena, OTHER_TAG, 4, SIZE);
            assertThat(cancelled.bytes()).isZero();
            ReceiveOperation late = receiver(arena, OTHER_TAG, SIZE);
            rank1.receive(late);
            assertThat(late.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(4);
            ReceiveOperation first = receiver(arena, TAG, SIZE);
            rank1.receive(first);
            assertThat(first.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(3);
        });
    }

    /** Rank 1 posts a receive of {@code tag}, rank 0 sends {@code value} to it, and the receive ends with it. */
    private static void receiveOne(PointToPoint rank0, PointToPoint rank1, Arena arena, int tag, int value) {
        ReceiveOperation r = receiver(arena, tag, SIZE);
        rank1.startReceive(r);
        send(rank0, arena, tag, value, SIZE);
        rank1.await(r);
        assertThat(r.buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(value);
        assertThat(r.tag()).isEqualTo(tag);
    }

    private static ReceiveOperation receiver(Arena arena, int tag, int bytes) {
        return new ReceiveOperation(arena.allocate(bytes), MatchBits.of(CONTEXT, 0, tag),
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
