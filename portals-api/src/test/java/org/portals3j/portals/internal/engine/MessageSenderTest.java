package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * {@link MessageSender} with a fake transport and a fake side: what is staged, that a staged payload's END comes
 * after its copy and before the transport has it, and that a refused message is reported to its side.
 */
class MessageSenderTest {
    private static final int LIMIT = 16;

    private final FakeTransport transport = new FakeTransport();
    private final SendStaging staging = new SendStaging(LIMIT, 2);
    private final MessageSender sender = new MessageSender(transport, staging);
    private final MemorySegment header = new MessageHeader().segment();
    /** What the side was told, and what the transport had been given by then. */
    private final List<String> told = new ArrayList<>();
    private final SendingSide side = new SendingSide() {
        @Override
        public void stagedPayloadCopied(long token) {
            told.add("copied " + token + " after " + transport.sent.size() + " sends");
        }

        @Override
        public void sendRefused(long token) {
            told.add("refused " + token);
        }
    };

    private static PendingOp op() {
        return new PendingOp(0);
    }

    @Test
    void stagesWhatFitsWhileBuffersLastAndBothEndsAreUp() {
        PendingOp a = op();
        assertThat(sender.stage(a, LIMIT, 1)).isTrue();
        assertThat(a.staging).isNotEqualTo(SendStaging.NONE);
        PendingOp empty = op();
        assertThat(sender.stage(empty, 0, 1)).as("an empty payload needs no buffer").isTrue();
        assertThat(empty.staging).isEqualTo(SendStaging.NONE);
        assertThat(sender.stage(op(), LIMIT + 1, 1)).as("larger than a buffer").isFalse();
        transport.deadRank = 1;
        assertThat(sender.stage(op(), 8, 1)).as("the peer is dead").isFalse();
        assertThat(sender.stage(op(), 8, 2)).isTrue();
        assertThat(sender.freeStagingBuffers()).isZero();
        PendingOp none = op();
        assertThat(sender.stage(none, 8, 2)).as("no buffer free").isFalse();
        assertThat(none.staging).isEqualTo(SendStaging.NONE);
        transport.deadRank = transport.rank();
        assertThat(sender.stage(op(), 0, 2)).as("this endpoint is closed").isFalse();
    }

    @Test
    void aStagedPayloadIsCopiedThenEndedThenHandedOver() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment md = arena.allocate(32);
            md.set(ValueLayout.JAVA_LONG_UNALIGNED, 4, 0x1122_3344_5566_7788L);
            PendingOp op = op();
            assertThat(sender.stage(op, 8, 1)).isTrue();

            sender.sendStaged(1, header, md, 4, 8, 42L, op.staging, side);
            md.fill((byte) 0); // the MD is the application's again

            assertThat(told).containsExactly("copied 42 after 0 sends");
            Sent s = transport.sent.getFirst();
            assertThat(s.payload).as("the transport reads the copy").isNotSameAs(md);
            assertThat(s.offset).isZero();
            assertThat(s.length).isEqualTo(8);
            assertThat(s.token).isEqualTo(42L);
            assertThat(s.payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(0x1122_3344_5566_7788L);
        }
    }

    @Test
    void anUnreadableMdIsHandedOverAsItIsAndItsEndWaitsForTheTransport() {
        Arena arena = Arena.ofShared();
        MemorySegment md = arena.allocate(8);
        PendingOp op = op();
        assertThat(sender.stage(op, 8, 1)).isTrue();
        arena.close();

        sender.sendStaged(1, header, md, 0, 8, 7L, op.staging, side);

        assertThat(told).as("no END before the transport's report").isEmpty();
        assertThat(transport.sent).hasSize(1);
        assertThat(transport.sent.getFirst().payload).isSameAs(md);
    }

    @Test
    void aRefusedMessageEndsItsOpUnlessNobodyWaitsForIt() {
        transport.refusal = new IllegalStateException("closed");
        sender.send(1, header, MemorySegment.NULL, 0, 0, 9L, side);
        sender.send(1, header, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY, side);
        transport.refusal = new IllegalArgumentException("a transport fault");
        sender.send(1, header, MemorySegment.NULL, 0, 0, 10L, side);

        assertThat(told).containsExactly("refused 9", "refused 10");
        transport.refusal = null;
        sender.send(1, header, MemorySegment.NULL, 0, 0, 11L, side);
        assertThat(told).hasSize(2);
        assertThat(transport.sent).hasSize(1);
    }

    private record Sent(int peer, MemorySegment payload, long offset, long length, long token) {
    }

    /** Records what it is given; refuses with {@link #refusal} if set; {@link #deadRank} is not alive. */
    private static final class FakeTransport implements Transport {
        final List<Sent> sent = new ArrayList<>();
        @Nullable RuntimeException refusal;
        int deadRank = -1;

        @Override
        public void send(int peer, MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                         long payloadLength, long token) {
            RuntimeException r = refusal;
            if (r != null) {
                throw r;
            }
            sent.add(new Sent(peer, payload, payloadOffset, payloadLength, token));
        }

        @Override
        public String provider() {
            return "fake";
        }

        @Override
        public Set<TransportCapability> capabilities() {
            return Set.of();
        }

        @Override
        public int rank() {
            return 0;
        }

        @Override
        public int size() {
            return 3;
        }

        @Override
        public int maxHeaderLength() {
            return MessageHeader.LENGTH;
        }

        @Override
        public long maxPayloadLength() {
            return Long.MAX_VALUE;
        }

        @Override
        public void start(MessageHandler handler) {
        }

        @Override
        public boolean isPeerAlive(int peer) {
            return peer != deadRank;
        }

        @Override
        public void close() {
        }
    }
}
