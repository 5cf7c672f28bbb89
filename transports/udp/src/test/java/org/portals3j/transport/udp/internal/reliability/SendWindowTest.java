package org.portals3j.transport.udp.internal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The send window's loss detection (RACK with an adaptive reordering window), undo of spurious cuts and RTT
 * sampling, driven by hand: the test plays the endpoint (it sends, retransmits and acknowledges) and the
 * clock is the {@code now} it passes.
 */
class SendWindowTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_000 * MS;

    private final SendWindow w = new SendWindow(64, 100, 16, 32, 64);
    private final RttEstimator rtt = new RttEstimator(MS, 1_000 * MS, 50 * MS);
    private final List<Long> retransmitted = new ArrayList<>();

    /** Queues {@code count} one-fragment messages and cuts them (sequence numbers in order). */
    private void queue(int count) {
        for (int i = 0; i < count; i++) {
            OutgoingMessage m = w.allocate();
            m.headerLength = 10;
            m.payloadLength = 50;
            w.enqueue(m);
            assertThat(w.canTransmitNew()).isTrue();
            w.cutNext();
        }
    }

    /** What the endpoint's transmit does to a slot. */
    private void send(long seq, long now) {
        SendWindow.Slot s = w.slot(seq);
        s.sentNanos = now;
        s.transmissions++;
    }

    /** What the endpoint does after each acknowledgement and on its timers: retransmit what RACK finds lost. */
    private List<Long> retransmitLost(long now) {
        List<Long> lost = new ArrayList<>();
        long s = w.una();
        while ((s = w.nextLost(s, now, rtt)) >= 0) {
            send(s, now);
            lost.add(s);
            retransmitted.add(s);
            s++;
        }
        return lost;
    }

    private void ack(long cum, long sack, long duplicate, long now) {
        w.onAck(cum, sack, 0, 64, duplicate, now, rtt, m -> { });
    }

    /** Bits for sequence numbers {@code seqs}, selectively acknowledged above {@code cum}. */
    private static long sack(long cum, long... seqs) {
        long bits = 0;
        for (long s : seqs) {
            bits |= 1L << (s - cum - 1);
        }
        return bits;
    }

    @Test
    void shouldRetransmitALossAtOnceWhenThreeLaterFragmentsArrivedAndNoReorderingWasSeen() {
        queue(10);
        for (int i = 0; i < 10; i++) {
            send(i, T0 + i * 10_000L);
        }
        ack(2, sack(2, 3, 4, 5), -1, T0 + 20 * MS);
        int cwnd = w.cwnd();
        assertThat(retransmitLost(T0 + 20 * MS)).containsExactly(2L); // as the old three-SACK rule did
        assertThat(w.cwnd()).isEqualTo(cwnd / 2);
        assertThat(retransmitLost(T0 + 20 * MS)).as("once").isEmpty();
        assertThat(w.nextExpired(0, T0 + 200 * MS, rtt.rto())).as("sacked ones are never re-sent").isEqualTo(2);
    }

    @Test
    void shouldRetransmitALossAfterAQuarterRoundTripWhenOneLaterFragmentArrived() {
        queue(4);
        send(0, T0);
        send(1, T0 + MS);
        ack(0, sack(0, 1), -1, T0 + 21 * MS); // RACK: round trip 20 ms; window: min RTT / 4 = 5 ms
        assertThat(retransmitLost(T0 + 21 * MS)).isEmpty();
        assertThat(w.lossDeadline(rtt)).isEqualTo(T0 + 25 * MS);
        assertThat(retransmitLost(T0 + 25 * MS - 1)).isEmpty();
        assertThat(retransmitLost(T0 + 25 * MS)).containsExactly(0L);
    }

    /** Fragment 0 arrives 4 ms after RACK's round trip said it was due, behind fragment 1. */
    private void learnReorderingOf4Ms() {
        send(0, T0);
        send(1, T0 + MS);
        ack(0, sack(0, 1), -1, T0 + 21 * MS);
        ack(2, 0, -1, T0 + 24 * MS);
        assertThat(retransmitLost(T0 + 24 * MS)).isEmpty();
    }

    @Test
    void shouldNotRetransmitWithinReorderingWindow() {
        queue(12);
        learnReorderingOf4Ms();
        long window = w.reorderWindow(rtt);
        assertThat(window).as("a quarter of the min RTT plus the reordering seen").isEqualTo(5 * MS + 4 * MS);
        for (int i = 2; i < 12; i++) {
            send(i, T0 + 30 * MS + (i - 2) * MS);
        }
        // 2 is missing while 3, 4, 5 arrived: three SACKs, but reordering was seen, so wait for the window
        long now = T0 + 53 * MS;
        ack(2, sack(2, 3, 4, 5), -1, now); // RACK: fragment 5, sent at +33 ms, 20 ms round trip
        assertThat(retransmitLost(now)).isEmpty();
        long due = T0 + 30 * MS + 20 * MS + window;
        assertThat(w.lossDeadline(rtt)).isEqualTo(due);
        assertThat(retransmitLost(due - 1)).isEmpty();
        assertThat(retransmitLost(due)).containsExactly(2L);
    }

    @Test
    void shouldGrowTheReorderingWindowToTheLargestReorderingSeenButNoFurtherThanSrtt() {
        queue(8);
        learnReorderingOf4Ms();
        send(2, T0 + 30 * MS);
        send(3, T0 + 31 * MS);
        ack(2, sack(2, 3), -1, T0 + 51 * MS);
        ack(4, 0, -1, T0 + 62 * MS); // 2 arrives 12 ms after its due time
        assertThat(w.reorderWindow(rtt)).isEqualTo(5 * MS + 12 * MS);
        send(4, T0 + 70 * MS);
        send(5, T0 + 71 * MS);
        ack(4, sack(4, 5), -1, T0 + 91 * MS);
        ack(6, 0, -1, T0 + 191 * MS); // 100 ms late: the window stops at SRTT
        assertThat(w.reorderWindow(rtt)).isEqualTo(rtt.srtt());
    }

    @Test
    void shouldUndoWindowCutWhenRetransmissionWasSpurious() {
        queue(10);
        for (int i = 0; i < 10; i++) {
            send(i, T0 + i * 10_000L);
        }
        ack(2, sack(2, 3, 4, 5), -1, T0 + 20 * MS);
        int cwnd = w.cwnd();
        long ssthresh = w.ssthresh();
        assertThat(retransmitLost(T0 + 20 * MS)).containsExactly(2L);
        assertThat(w.cwnd()).isEqualTo(cwnd / 2);
        long windowBefore = w.reorderWindow(rtt);
        ack(6, 0, -1, T0 + 22 * MS); // the original arrived after all
        ack(6, 0, 2, T0 + 41 * MS); // and the receiver reports the retransmission as a second copy
        assertThat(w.spuriousRetransmissions()).isEqualTo(1);
        assertThat(w.undoneCuts()).isEqualTo(1);
        assertThat(w.cwnd()).isGreaterThanOrEqualTo(cwnd);
        assertThat(w.ssthresh()).isGreaterThanOrEqualTo(ssthresh);
        assertThat(w.reorderWindow(rtt)).as("the reordering window grew").isGreaterThan(windowBefore);
    }

    @Test
    void shouldNotUndoWhenOneRetransmissionOfTheEpisodeWasNeeded() {
        queue(10);
        for (int i = 0; i < 10; i++) {
            send(i, T0 + i * 10_000L);
        }
        int cwnd = w.cwnd();
        ack(2, sack(2, 3, 5, 6, 7), -1, T0 + 20 * MS);
        assertThat(retransmitLost(T0 + 20 * MS)).containsExactly(2L, 4L);
        ack(4, sack(4, 5, 6, 7), -1, T0 + 22 * MS); // 2's original arrived; 4 was really lost
        ack(8, 0, 2, T0 + 40 * MS); // the copy of 2 was spurious; 4's retransmission was the one to arrive
        assertThat(w.spuriousRetransmissions()).isEqualTo(1);
        assertThat(w.undoneCuts()).isZero();
        assertThat(w.cwnd()).isLessThan(cwnd);
    }

    @Test
    void aDuplicateOfAFragmentNeverRetransmittedSaysNothing() {
        queue(4);
        for (int i = 0; i < 4; i++) {
            send(i, T0);
        }
        ack(4, 0, 1, T0 + 20 * MS); // the network duplicated 1
        assertThat(w.spuriousRetransmissions()).isZero();
        assertThat(w.reorderWindow(rtt)).isEqualTo(5 * MS); // nothing learnt
    }

    @Test
    void shouldUndoASpuriousTimeoutAndItsBackoff() {
        queue(8);
        send(0, T0);
        ack(1, 0, -1, T0 + 20 * MS);
        long rto = rtt.rto();
        for (int i = 1; i < 5; i++) {
            send(i, T0 + 21 * MS);
        }
        long now = T0 + 21 * MS + rto; // the endpoint's timer: the oldest waited an RTO
        rtt.backoff();
        w.onTimeout(now, rto);
        assertThat(w.cwnd()).isEqualTo(SendWindow.MIN_CWND);
        for (long s = 1; (s = w.nextExpired(s, now, rto)) >= 0; s++) {
            send(s, now);
        }
        ack(5, 0, -1, now + MS); // the originals were only slow
        for (long d = 1; d < 5; d++) {
            assertThat(w.undoneCuts()).isZero();
            ack(5, 0, d, now + 20 * MS); // each copy reported once
        }
        assertThat(w.undoneCuts()).isEqualTo(1);
        assertThat(w.cwnd()).isGreaterThan(SendWindow.MIN_CWND);
        assertThat(rtt.rto()).as("back-off undone").isEqualTo(rto);
    }

    @Test
    void shouldFindALostRetransmissionWhenALaterSentFragmentArrives() {
        queue(12);
        for (int i = 0; i < 6; i++) {
            send(i, T0 + i * 10_000L);
        }
        ack(2, sack(2, 3, 4, 5), -1, T0 + 20 * MS);
        assertThat(retransmitLost(T0 + 20 * MS)).containsExactly(2L);
        for (int i = 6; i < 10; i++) {
            send(i, T0 + 21 * MS);
        }
        // fragments sent after the retransmission arrived; the retransmission did not
        long now = T0 + 41 * MS;
        ack(2, sack(2, 3, 4, 5, 6, 7, 8), -1, now);
        assertThat(retransmitLost(now)).as("no need to wait for the timeout").containsExactly(2L);
        assertThat(retransmitted).containsExactly(2L, 2L);
    }

    @Test
    void everyFragmentSentOnceIsAnRttSampleAndRetransmittedOnesAreNot() {
        queue(6);
        for (int i = 0; i < 6; i++) {
            send(i, T0);
        }
        ack(2, sack(2, 3, 4, 5), -1, T0 + 20 * MS);
        assertThat(rtt.srtt()).isEqualTo(20 * MS);
        assertThat(rtt.minRtt()).isEqualTo(20 * MS);
        retransmitLost(T0 + 20 * MS);
        ack(6, 0, -1, T0 + 21 * MS); // 2, retransmitted: no sample (Karn), so no 1 ms round trip
        assertThat(rtt.minRtt()).isEqualTo(20 * MS);
    }

    @Test
    void theRtoStaysAboveJitteredRoundTripsWithoutRunningAway() {
        // 10 +- 5 ms each way: round trips spread over 10..30 ms, 32 samples per round trip
        RttEstimator r = new RttEstimator(MS, 1_000 * MS, 50 * MS);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            long sample = random.nextLong(5 * MS, 15 * MS + 1) + random.nextLong(5 * MS, 15 * MS + 1);
            r.sample(sample, 32);
            if (i > 2_000) {
                assertThat(r.rto()).as("sample %d", i).isBetween(30 * MS, 60 * MS);
            }
        }
    }

    @Test
    void aSteadyRoundTripDoesNotBringTheRtoDownToIt() {
        RttEstimator r = new RttEstimator(10 * MS, 1_000 * MS, 50 * MS);
        for (int i = 0; i < 1_000; i++) {
            r.sample(20 * MS);
        }
        assertThat(r.rto()).as("SRTT plus at least the minimum RTO").isGreaterThanOrEqualTo(30 * MS);
    }
}
