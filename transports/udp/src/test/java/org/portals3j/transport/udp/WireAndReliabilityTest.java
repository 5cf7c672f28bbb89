package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.internal.io.PooledBuffer;
import org.portals3j.transport.udp.internal.reliability.Fragmenter;
import org.portals3j.transport.udp.internal.reliability.OutgoingMessage;
import org.portals3j.transport.udp.internal.reliability.ReceiveWindow;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.reliability.SendWindow;
import org.portals3j.transport.udp.internal.wire.AesCmacMac;
import org.portals3j.transport.udp.internal.wire.AesGcmMac;
import org.portals3j.transport.udp.internal.wire.AesPmacMac;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramMac;
import org.portals3j.transport.udp.internal.wire.DatagramType;
import org.portals3j.transport.udp.internal.wire.GmacMac;
import org.portals3j.transport.udp.internal.wire.HmacSha256Mac;

/** Unit tests: the wire codec, the RTT estimator, the send and receive windows. */
class WireAndReliabilityTest {
    private static final byte[] KEY = new byte[32];

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) (i * 7 + 1);
        }
    }

    private static DatagramMac mac(String name) {
        return switch (name) {
            case "gmac" -> new GmacMac(KEY);
            case "aes-gcm" -> new AesGcmMac(KEY);
            case "aes-cmac" -> new AesCmacMac(KEY);
            case "aes-pmac" -> new AesPmacMac(KEY);
            case "auto" -> new AutoMac(KEY);
            default -> new HmacSha256Mac(KEY);
        };
    }

    /**
     * Sealers that may encrypt the body (AES-GCM: the check decrypts it in place), so every flip is tried on a
     * fresh copy of the sealed datagram; {@code auto} (AES-PMAC) leaves it as it is, at 40 bytes and at 9000.
     * AES-GCM runs the cipher on the heap buffer's own array and copies a direct buffer through its
     * scratch; the sender's and the receiver's buffers are of either kind, and the bytes on the wire must
     * not depend on it.
     */
    @ParameterizedTest
    @CsvSource({"aes-gcm, 40, 1, direct, direct", "auto, 40, 1, direct, direct", "auto, 9000, 13, direct, direct",
            "aes-gcm, 40, 1, heap, heap", "auto, 9000, 13, heap, direct", "auto, 9000, 13, direct, heap",
            "aes-gcm, 9000, 13, heap, direct", "aes-gcm, 9000, 13, direct, heap"})
    void sealedDatagramsOpenToTheirPlaintextAndAnyFlippedBitIsRejected(String macName, int body, int bitStep,
                                                                        String senderBuffer, String receiverBuffer) {
        DatagramCodec sender = new DatagramCodec(mac(macName));
        DatagramCodec receiver = new DatagramCodec(mac(macName));
        int capacity = DatagramHeader.LENGTH + body + DatagramHeader.TRAILER_ROOM;
        ByteBuffer s = buffer(senderBuffer, capacity);
        int length = sample(s, body);
        byte[] plain = new byte[body];
        s.get(DatagramHeader.LENGTH, plain);
        sender.seal(s, length);
        byte[] sealed = new byte[length];
        s.get(0, sealed);
        if (!senderBuffer.equals("direct")) {
            ByteBuffer d = buffer("direct", capacity);
            sample(d, body);
            new DatagramCodec(mac(macName)).seal(d, length);
            byte[] fromDirect = new byte[length];
            d.get(0, fromDirect);
            assertThat(sealed).as("sealed from a heap buffer as from a direct one").isEqualTo(fromDirect);
        }
        ByteBuffer b = buffer(receiverBuffer, capacity);
        b.put(0, sealed);
        boolean encrypted = !Arrays.equals(plain, Arrays.copyOfRange(sealed, DatagramHeader.LENGTH, length));
        assertThat(encrypted).as("body encrypted on the wire").isEqualTo(macName.equals("aes-gcm"));
        assertThat(receiver.check(b, length)).isEqualTo(DatagramCodec.Verdict.OK);
        byte[] opened = new byte[body];
        b.get(DatagramHeader.LENGTH, opened);
        assertThat(opened).as("the body after the check").isEqualTo(plain);
        for (int bit = 0; bit < length * 8; bit += bitStep) {
            b.put(0, sealed);
            b.put(bit >>> 3, (byte) (b.get(bit >>> 3) ^ (1 << (bit & 7))));
            assertThat(receiver.check(b, length)).as("bit %d", bit).isNotEqualTo(DatagramCodec.Verdict.OK);
        }
        b.put(0, sealed);
        assertThat(receiver.check(b, length)).isEqualTo(DatagramCodec.Verdict.OK);
    }

    private static ByteBuffer buffer(String kind, int capacity) {
        return (kind.equals("heap") ? ByteBuffer.allocate(capacity) : ByteBuffer.allocateDirect(capacity))
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int sample(ByteBuffer b, int body) {
        DatagramHeader.write(b, DatagramType.DATA, DatagramHeader.FLAG_FIRST | DatagramHeader.FLAG_LAST, 0x1234, 1, 2,
                64, 11L, 22L, 33L, 44L, 55L, 0b101L, 0L, body - 8, 0, 8, body);
        for (int i = 0; i < body; i++) {
            b.put(DatagramHeader.LENGTH + i, (byte) (i * 3));
        }
        return DatagramHeader.LENGTH + body;
    }

    @ParameterizedTest
    @ValueSource(strings = {"hmac-sha256", "gmac", "aes-cmac", "aes-pmac"})
    void aSealedDatagramRoundTripsAndEverySingleBitFlipIsRejected(String macName) {
        DatagramCodec sender = new DatagramCodec(mac(macName));
        DatagramCodec receiver = new DatagramCodec(mac(macName));
        ByteBuffer b = ByteBuffer.allocateDirect(1024).order(ByteOrder.LITTLE_ENDIAN);
        int length = sample(b, 40);
        sender.seal(b, length);
        assertThat(receiver.check(b, length)).isEqualTo(DatagramCodec.Verdict.OK);
        assertThat(DatagramHeader.source(b)).isEqualTo(1);
        assertThat(DatagramHeader.destination(b)).isEqualTo(2);
        assertThat(DatagramHeader.sourceIncarnation(b)).isEqualTo(11L);
        assertThat(DatagramHeader.destinationIncarnation(b)).isEqualTo(22L);
        assertThat(DatagramHeader.counter(b)).isEqualTo(33L);
        assertThat(DatagramHeader.seq(b)).isEqualTo(44L);
        assertThat(DatagramHeader.cumAck(b)).isEqualTo(55L);
        assertThat(DatagramHeader.sack(b)).isEqualTo(0b101L);
        assertThat(DatagramHeader.messageHeaderLength(b)).isEqualTo(8);
        assertThat(DatagramHeader.bodyLength(b)).isEqualTo(40);
        for (int bit = 0; bit < length * 8; bit++) {
            b.put(bit >>> 3, (byte) (b.get(bit >>> 3) ^ (1 << (bit & 7))));
            assertThat(receiver.check(b, length)).as("bit %d", bit).isNotEqualTo(DatagramCodec.Verdict.OK);
            b.put(bit >>> 3, (byte) (b.get(bit >>> 3) ^ (1 << (bit & 7))));
        }
        assertThat(receiver.check(b, length)).isEqualTo(DatagramCodec.Verdict.OK);
    }

    @Test
    void truncatedAndExtendedDatagramsAreRejectedInTheDocumentedOrder() {
        DatagramCodec codec = new DatagramCodec(mac("hmac-sha256"));
        ByteBuffer b = ByteBuffer.allocateDirect(1024).order(ByteOrder.LITTLE_ENDIAN);
        int length = sample(b, 40);
        codec.seal(b, length);
        for (int cut = 0; cut < length; cut++) {
            DatagramCodec.Verdict v = codec.check(b, cut);
            assertThat(v).isNotEqualTo(DatagramCodec.Verdict.OK);
            if (cut < DatagramHeader.LENGTH) {
                assertThat(v).isEqualTo(DatagramCodec.Verdict.SHORT);
            }
        }
        assertThat(codec.check(b, length + 1)).isNotEqualTo(DatagramCodec.Verdict.OK);
        b.putInt(0, 0);
        assertThat(codec.check(b, length)).isEqualTo(DatagramCodec.Verdict.MAGIC);
        b.putInt(0, DatagramHeader.MAGIC);
        b.put(4, (byte) 9);
        assertThat(codec.check(b, length)).isEqualTo(DatagramCodec.Verdict.VERSION);
        b.put(4, (byte) DatagramHeader.VERSION);
        DatagramCodec otherKey = new DatagramCodec(new HmacSha256Mac(new byte[32]));
        assertThat(otherKey.check(b, length)).isEqualTo(DatagramCodec.Verdict.MAC); // CRC fine, key wrong
    }

    @Test
    void aDuplicateReportIsADistanceBelowTheCumulativeAckThatFitsSixteenBits() {
        ByteBuffer b = ByteBuffer.allocate(DatagramHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        long cum = 100_000;
        DatagramHeader.write(b, DatagramType.ACK, 0, 1, 0, 1, 8, 2, 3, 4, 0, cum, 0, 0, 0, 0, 0, 0);
        assertThat(DatagramHeader.duplicate(b)).as("written as none").isZero();
        assertThat(DatagramHeader.duplicateSeq(cum, DatagramHeader.duplicate(b))).isEqualTo(-1);
        for (long seq : new long[] {cum - 1, cum + 1, cum + 63, cum - 32767, cum + 32768}) {
            DatagramHeader.duplicate(b, DatagramHeader.duplicateDistance(cum, seq));
            assertThat(DatagramHeader.duplicateSeq(cum, DatagramHeader.duplicate(b))).as("seq %d", seq).isEqualTo(seq);
        }
        assertThat(DatagramHeader.duplicateDistance(cum, cum - 32768)).as("too far to say").isZero();
        assertThat(DatagramHeader.duplicateDistance(cum, cum + 32769)).as("too far to say").isZero();
        assertThat(DatagramHeader.duplicateDistance(1000, -1)).as("nothing to report").isZero();
    }

    @Test
    void theRttEstimatorFollowsRfc6298() {
        long ms = 1_000_000L;
        RttEstimator rtt = new RttEstimator(1 * ms, 60_000 * ms, 1_000 * ms);
        assertThat(rtt.rto()).isEqualTo(1_000 * ms);
        rtt.sample(100 * ms); // SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR
        assertThat(rtt.srtt()).isEqualTo(100 * ms);
        assertThat(rtt.rttvar()).isEqualTo(50 * ms);
        assertThat(rtt.rto()).isEqualTo(300 * ms);
        rtt.sample(200 * ms); // RTTVAR = 3/4*50 + 1/4*100 = 62.5; SRTT = 7/8*100 + 1/8*200 = 112.5
        assertThat(rtt.rttvar()).isEqualTo(62_500_000L);
        assertThat(rtt.srtt()).isEqualTo(112_500_000L);
        assertThat(rtt.rto()).isEqualTo(362_500_000L);
        rtt.backoff();
        assertThat(rtt.rto()).isEqualTo(725_000_000L);
        for (int i = 0; i < 20; i++) {
            rtt.backoff();
        }
        assertThat(rtt.rto()).isEqualTo(60_000 * ms); // capped
        RttEstimator floor = new RttEstimator(5 * ms, 100 * ms, 1 * ms);
        assertThat(floor.rto()).isEqualTo(5 * ms);
        floor.sample(10_000L); // 10 us: the variance term is at least the minimum RTO
        assertThat(floor.rto()).isEqualTo(5 * ms + 10_000L);
    }

    private static OutgoingMessage message(SendWindow w, long payload, long token) {
        OutgoingMessage m = w.allocate();
        m.headerLength = 10;
        m.payloadLength = payload;
        m.token = token;
        w.enqueue(m);
        return m;
    }

    @Test
    void fragmentsTakeConsecutiveSequenceNumbersAndCompleteOnTheLastAck() {
        SendWindow w = new SendWindow(64, 100, 16, 64, 64);
        message(w, 250, 1); // 90 + 100 + 60
        message(w, 0, 2);
        assertThat(Fragmenter.fragments(10, 250, 100)).isEqualTo(3);
        List<SendWindow.Slot> slots = new ArrayList<>();
        while (w.canTransmitNew()) {
            slots.add(w.cutNext());
        }
        assertThat(slots).extracting(s -> s.seq).containsExactly(0L, 1L, 2L, 3L);
        assertThat(slots).extracting(s -> s.fragmentOffset).containsExactly(0L, 90L, 190L, 0L);
        assertThat(slots).extracting(s -> s.fragmentLength).containsExactly(90, 100, 60, 0);
        assertThat(slots).extracting(s -> s.flags).containsExactly(1, 0, 2, 3);
        List<Long> done = new ArrayList<>();
        RttEstimator rtt = new RttEstimator(1, 1_000_000_000L, 1_000);
        w.onAck(2, 0, 0, 64, -1, 0, rtt, m -> done.add(m.token));
        assertThat(done).isEmpty();
        w.onAck(4, 0, 0, 64, -1, 0, rtt, m -> done.add(m.token));
        assertThat(done).containsExactly(1L, 2L);
        assertThat(w.inFlight()).isZero();
        assertThat(w.plausible(5, 10, -1)).isFalse(); // cannot acknowledge what was never sent
        assertThat(w.plausible(4, 10, 4)).isFalse(); // nor report a duplicate of it
        assertThat(w.plausible(4, 10, 3)).isTrue();
    }

    @Test
    void anAcknowledgementsFailedBitsFailTheMessagesTheReceiverCouldNotDeposit() {
        SendWindow w = new SendWindow(64, 100, 16, 32, 64);
        for (int i = 1; i <= 3; i++) {
            message(w, 50, i); // one fragment each: sequence numbers 0, 1, 2
        }
        while (w.canTransmitNew()) {
            w.cutNext();
        }
        List<String> done = new ArrayList<>();
        RttEstimator rtt = new RttEstimator(1, 1_000_000_000L, 1_000);
        // cumAck 3: bit 0 = sequence 2, bit 2 = sequence 0 failed at the receiver; 1 was deposited
        w.onAck(3, 0, 0b101, 64, -1, 0, rtt, m -> done.add(m.token + (m.failed ? " failed" : " delivered")));
        assertThat(done).containsExactly("1 failed", "2 delivered", "3 failed");
    }


    @Test
    void theReceiveWindowOrdersHoldsBoundsAndAcknowledgesSelectively() {
        ReceiveWindow r = new ReceiveWindow(8);
        PooledBuffer b2 = new PooledBuffer(16);
        PooledBuffer b3 = new PooledBuffer(16);
        assertThat(r.offer(0, true)).isEqualTo(ReceiveWindow.Offer.DIRECT);
        r.consumedDirect();
        assertThat(r.offer(0, true)).isEqualTo(ReceiveWindow.Offer.DUPLICATE);
        assertThat(r.offer(9, true)).isEqualTo(ReceiveWindow.Offer.OUT_OF_WINDOW); // 1 + 8
        assertThat(r.offer(-5, true)).isEqualTo(ReceiveWindow.Offer.DUPLICATE);
        assertThat(r.offer(3, true)).isEqualTo(ReceiveWindow.Offer.HOLD);
        r.hold(3, b3);
        assertThat(r.offer(3, true)).isEqualTo(ReceiveWindow.Offer.DUPLICATE);
        assertThat(r.cumAck()).isEqualTo(1);
        assertThat(r.sack()).isEqualTo(0b10L); // seq 3 = cumAck + 1 + 1
        assertThat(r.takeDeliverable()).isNull();
        assertThat(r.offer(1, true)).isEqualTo(ReceiveWindow.Offer.DIRECT);
        r.consumedDirect();
        r.hold(2, b2);
        assertThat(r.cumAck()).isEqualTo(4);
        assertThat(r.takeDeliverable()).isSameAs(b2);
        assertThat(r.takeDeliverable()).isSameAs(b3);
        assertThat(r.takeDeliverable()).isNull();
        assertThat(r.window()).isEqualTo(8);
        // not started: in-order data is held and the advertised window shrinks
        assertThat(r.offer(4, false)).isEqualTo(ReceiveWindow.Offer.HOLD);
        r.hold(4, b2);
        assertThat(r.window()).isEqualTo(7);
    }
}
