package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;

/**
 * Transport callbacks treat header bytes as hostile (catalogue I-137): every malformed frame is dropped
 * and counted under its reason and drop.malformed, nothing is thrown, no payload is accepted, and the state
 * stays as it was, so the next well-formed frame is taken normally.
 */
class NonisoHostileFrameTest {
    private static final int RING = 8;
    private static final int MAX_PAYLOAD = 64;

    private final HostileFrames f = new HostileFrames(RING);

    private static NonisoCluster cluster() {
        return new NonisoCluster(2, NonisoCluster.config().nonisoSlotsPerPeer(RING).maxPayload(MAX_PAYLOAD).build());
    }

    /** What a transport does with one frame: onHeader, the payload into the accepted region, onDeposited. */
    private static Deposit deliver(NonisoLayer l, int source, MemorySegment header, int headerLength,
                                   byte[] payload) {
        DepositWriter writer = new DepositWriter();
        Deposit d = writer.deposit();
        l.onHeader(source, header, headerLength, payload.length, d);
        if (d.accepted()) {
            long n = Math.min(d.length(), payload.length);
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, d.segment(), d.offset(), n);
            writer.addDeposited(n);
        }
        l.onDeposited(source, d);
        return d;
    }

    private static void assertDropped(NonisoCluster c, Deposit d, String reason, long before, long malformedBefore) {
        assertThat(d.accepted()).as("%s: payload accepted", reason).isFalse();
        assertThat(c.counter(0, reason)).as(reason).isEqualTo(before + 1);
        assertThat(c.counter(0, "drop.malformed")).as("drop.malformed for %s", reason).isEqualTo(malformedBefore + 1);
    }

    /** One malformed frame: dropped under {@code reason}. */
    private void expectDrop(NonisoCluster c, String reason, int source, MemorySegment h, int headerLength,
                            byte[] payload) {
        long before = c.counter(0, reason);
        long malformed = c.counter(0, "drop.malformed");
        Deposit[] d = new Deposit[1];
        assertThatCode(() -> d[0] = deliver(c.host(0), source, h, headerLength, payload)).doesNotThrowAnyException();
        assertDropped(c, d[0], reason, before, malformed);
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i + 1);
        }
        return b;
    }

    @Test
    void wrongKindsAreDropped() {
        try (NonisoCluster c = cluster()) {
            expectDrop(c, "drop.kind", 1, f.frame((byte) 0x2F, false, 0, 0), NonisoFrame.DATA_LENGTH, new byte[0]);
            expectDrop(c, "drop.kind", 1, f.frame((byte) 0x25, false, 0, 0), NonisoFrame.DATA_LENGTH, new byte[0]);
            expectDrop(c, "drop.kind", 1, f.frame((byte) 0x05, false, 0, 0), NonisoFrame.DATA_LENGTH, new byte[0]);
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    @Test
    void shortOrLongOrTruncatedHeadersAreDropped() {
        try (NonisoCluster c = cluster()) {
            expectDrop(c, "drop.header", 1, f.data(0, 4), 0, bytes(4));
            expectDrop(c, "drop.header", 1, f.data(0, 4), 1, bytes(4));
            expectDrop(c, "drop.header", 1, f.data(0, 4), 10, bytes(4));
            expectDrop(c, "drop.header", 1, f.data(0, 4), NonisoFrame.DATA_LENGTH - 1, bytes(4));
            expectDrop(c, "drop.header", 1, f.data(0, 4), NonisoFrame.DATA_LENGTH + 4, bytes(4));
            expectDrop(c, "drop.header", 1, f.barrier(1), NonisoFrame.COMMON_LENGTH, new byte[0]);
            // The header segment is shorter than the length claimed.
            MemorySegment tiny = f.data(0, 4).asSlice(0, 8);
            expectDrop(c, "drop.header", 1, tiny, NonisoFrame.DATA_LENGTH, bytes(4));
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    @Test
    void badVersionReservedByteAndUnknownFlagsAreDropped() {
        try (NonisoCluster c = cluster()) {
            expectDrop(c, "drop.version", 1, HostileFrames.with(f.data(0, 4), NonisoFrame.OFF_VERSION, 2),
                    NonisoFrame.DATA_LENGTH, bytes(4));
            expectDrop(c, "drop.version", 1, HostileFrames.with(f.data(0, 4), NonisoFrame.OFF_VERSION, 0),
                    NonisoFrame.DATA_LENGTH, bytes(4));
            expectDrop(c, "drop.header", 1, HostileFrames.with(f.data(0, 4), NonisoFrame.OFF_RESERVED, 1),
                    NonisoFrame.DATA_LENGTH, bytes(4));
            expectDrop(c, "drop.header", 1, HostileFrames.with(f.data(0, 4), NonisoFrame.OFF_FLAGS, 0x80),
                    NonisoFrame.DATA_LENGTH, bytes(4));
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    @Test
    void badSlotsAreDropped() {
        try (NonisoCluster c = cluster()) {
            expectDrop(c, "drop.slot", 1, f.data(1, 4), NonisoFrame.DATA_LENGTH, bytes(4)); // not the next slot
            expectDrop(c, "drop.slot", 1, f.data(-1, 4), NonisoFrame.DATA_LENGTH, bytes(4));
            expectDrop(c, "drop.slot", 1, f.data(RING, 4), NonisoFrame.DATA_LENGTH, bytes(4)); // a control slot
            expectDrop(c, "drop.slot", 1, f.data(Integer.MAX_VALUE, 4), NonisoFrame.DATA_LENGTH, bytes(4));
            expectDrop(c, "drop.slot", 1, f.readResponse(3, 1, 2, 3), NonisoFrame.READ_RESPONSE_LENGTH, new byte[0]);
            MemorySegment creditInRing = f.frame(NonisoFrame.KIND_CREDIT, true, 0, 0);
            expectDrop(c, "drop.slot", 1, creditInRing, NonisoFrame.CREDIT_LENGTH, new byte[0]);
            MemorySegment barrierInCreditSlot = f.barrier(1);
            barrierInCreditSlot.set(NonisoFrame.INT, NonisoFrame.OFF_SLOT, RING + NonisoFrame.CONTROL_CREDIT);
            expectDrop(c, "drop.slot", 1, barrierInCreditSlot, NonisoFrame.BARRIER_LENGTH, new byte[0]);
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    @Test
    void oversizeAndInconsistentLengthsAreDropped() {
        try (NonisoCluster c = cluster()) {
            expectDrop(c, "drop.oversize", 1, f.data(0, MAX_PAYLOAD + 1), NonisoFrame.DATA_LENGTH,
                    bytes(MAX_PAYLOAD + 1));
            expectDrop(c, "drop.oversize", 1, f.data(0, 10), NonisoFrame.DATA_LENGTH, bytes(20));
            expectDrop(c, "drop.oversize", 1, f.data(0, -1), NonisoFrame.DATA_LENGTH, new byte[0]);
            expectDrop(c, "drop.oversize", 1, f.readResponse(0, 1, 2, 3), NonisoFrame.READ_RESPONSE_LENGTH,
                    bytes(8));
            expectDrop(c, "drop.oversize", 1, f.credit(0), NonisoFrame.CREDIT_LENGTH, bytes(1));
            expectDrop(c, "drop.oversize", 1, f.barrier(1), NonisoFrame.BARRIER_LENGTH, bytes(3));
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    @Test
    void impossibleSourcesAreDropped() {
        try (NonisoCluster c = cluster()) {
            expectDrop(c, "drop.source", 0, f.data(0, 4), NonisoFrame.DATA_LENGTH, bytes(4)); // itself
            expectDrop(c, "drop.source", 2, f.data(0, 4), NonisoFrame.DATA_LENGTH, bytes(4));
            expectDrop(c, "drop.source", -1, f.data(0, 4), NonisoFrame.DATA_LENGTH, bytes(4));
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    @Test
    void creditFlagMisuseAndImpossibleCreditsAreDropped() {
        try (NonisoCluster c = cluster()) {
            // Host 0 has assigned 3 slots at host 1 (not delivered: the loopback is not pumped).
            for (int i = 0; i < 3; i++) {
                c.host(0).send(1, c.payload(i, 8), 8);
            }
            expectDrop(c, "drop.header", 1, f.frame(NonisoFrame.KIND_CREDIT, false, RING, 0),
                    NonisoFrame.CREDIT_LENGTH, new byte[0]);
            expectDrop(c, "drop.header", 1, f.frame(NonisoFrame.KIND_CREDIT_REQUEST, true, RING + 1, 0),
                    NonisoFrame.CREDIT_REQUEST_LENGTH, new byte[0]);
            MemorySegment barrierWithCredit = f.barrier(1);
            HostileFrames.with(barrierWithCredit, NonisoFrame.OFF_FLAGS, NonisoFrame.FLAG_CREDIT);
            expectDrop(c, "drop.header", 1, barrierWithCredit, NonisoFrame.BARRIER_LENGTH, new byte[0]);
            expectDrop(c, "drop.credit", 1, f.credit(4), NonisoFrame.CREDIT_LENGTH, new byte[0]); // > assigned
            expectDrop(c, "drop.credit", 1, f.credit(-1), NonisoFrame.CREDIT_LENGTH, new byte[0]);
            expectDrop(c, "drop.credit", 1, f.dataWithCredit(0, 4, 9), NonisoFrame.DATA_LENGTH, bytes(4));
            assertThat(c.host(0).outstanding(1)).isEqualTo(3);
            deliver(c.host(0), 1, f.credit(2), NonisoFrame.CREDIT_LENGTH, new byte[0]);
            c.host(0).poll();
            assertThat(c.host(0).outstanding(1)).isEqualTo(1);
            expectDrop(c, "drop.credit", 1, f.credit(1), NonisoFrame.CREDIT_LENGTH, new byte[0]); // goes back
            assertThat(c.host(0).outstanding(1)).isEqualTo(1);
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    /**
     * I-094 against a sender that ignores its credits: the frame that would take the last free slot of the ring
     * (ring - 1 are allowed, Isotach report §7.1.3, pp. 59-62) is dropped, so an undelivered message is never
     * overwritten.
     */
    @Test
    void i094_aSenderExceedingItsCreditsCannotOverwriteTheRing() {
        try (NonisoCluster c = cluster()) {
            NonisoLayer l = c.host(0);
            for (int slot = 0; slot < RING - 1; slot++) {
                byte[] p = new byte[8];
                Arrays.fill(p, (byte) slot);
                assertThat(deliver(l, 1, f.data(slot, 8), NonisoFrame.DATA_LENGTH, p).accepted()).isTrue();
            }
            expectDrop(c, "drop.overrun", 1, f.data(RING - 1, 8), NonisoFrame.DATA_LENGTH, bytes(8));
            expectDrop(c, "drop.overrun", 1, f.readResponse(RING - 1, 1, 2, 3), NonisoFrame.READ_RESPONSE_LENGTH,
                    new byte[0]);
            NonisoMessage m = new NonisoMessage();
            for (int slot = 0; slot < RING - 1; slot++) {
                assertThat(l.receive(m)).isZero();
                assertThat(m.data().get(ValueLayout.JAVA_BYTE, 7)).isEqualTo((byte) slot);
            }
            // Six freed (the seventh is held): the next slots are accepted again.
            assertThat(deliver(l, 1, f.data(RING - 1, 8), NonisoFrame.DATA_LENGTH, bytes(8)).accepted()).isTrue();
        }
    }

    /** Well-formed control frames arriving directly are taken (the builders above produce valid frames). */
    @Test
    void wellFormedControlFramesAreAccepted() {
        try (NonisoCluster c = cluster()) {
            deliver(c.host(0), 1, f.creditRequest(), NonisoFrame.CREDIT_REQUEST_LENGTH, new byte[0]);
            deliver(c.host(0), 1, f.barrier(1), NonisoFrame.BARRIER_LENGTH, new byte[0]);
            deliver(c.host(0), 1, f.credit(0), NonisoFrame.CREDIT_LENGTH, new byte[0]);
            deliver(c.host(0), 1, f.readResponse(0, -5, 77, 123456789L), NonisoFrame.READ_RESPONSE_LENGTH, new byte[0]);
            c.host(0).poll();
            assertThat(c.readResponses).containsExactly(new NonisoCluster.ReadResponse(0, 1, -5, 77, 123456789L));
            assertThat(c.counter(0, "credit.requestReceived")).isEqualTo(1);
            assertThat(c.counter(0, "credit.explicit")).as("the request was answered").isEqualTo(1);
            assertThat(c.counter(0, "credit.explicitReceived")).isEqualTo(1);
            assertThat(c.counter(0, "barrier.received")).isEqualTo(1);
            assertThat(c.counter(0, "drop.malformed")).isZero();
        }
    }

    /** Completion tokens that are not this module's, or name no slot in flight, are counted and ignored. */
    @Test
    void foreignAndStaleCompletionTokensAreIgnored() {
        try (NonisoCluster c = cluster()) {
            NonisoLayer l = c.host(0);
            l.onSendComplete(0x02L << 56, true);
            l.onSendComplete(0x01L << 56, true); // cell 0: nothing in flight
            l.onSendComplete((0x01L << 56) | 1_000_000, true);
            l.onSendComplete(-1L, true);
            assertThat(c.counter(0, "token.unknown")).isEqualTo(4);
            assertThat(c.counter(0, "send.undelivered")).isZero();
            assertAcceptsTheNextGoodFrame(c);
        }
    }

    /** After the drops, a real message from host 1 still takes slot 0 and arrives intact. */
    private static void assertAcceptsTheNextGoodFrame(NonisoCluster c) {
        assertThat(c.host(1).send(0, c.payload(42, 24), 24)).isZero();
        c.settle();
        NonisoMessage m = new NonisoMessage();
        assertThat(c.host(0).receive(m)).isZero();
        assertThat(m.senderId()).isEqualTo(1);
        assertThat(NonisoCluster.tagOf(m)).isEqualTo(42);
        assertThat(c.counter(0, "noniso.received")).isEqualTo(1);
    }
}
