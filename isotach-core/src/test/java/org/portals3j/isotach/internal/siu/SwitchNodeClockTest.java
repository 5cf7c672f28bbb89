package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.isotach.internal.siu.ClockFrames.mark;
import static org.portals3j.isotach.internal.siu.ClockFrames.token;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.siu.OrderRecordingTransport.Sent;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;

/**
 * The switch node's clock traffic: tokens, pulse marks and wake-ups riding behind ISO packets queued for the same
 * link (or alone in CLOCK frames), and an SIU marking one pulse ahead of its last token when it stamps an isochron.
 */
// Records come from the switch node; the assertions check them for null.
@SuppressWarnings("nullness")
class SwitchNodeClockTest {
    private static final int ISO_MBM = 0x10;
    private static final int ONE_PACKET = Frame.PREFIX_START_OF_ISOCHRON | Frame.PREFIX_END_OF_ISOCHRON;

    /** No idle ticks during a test: every token the TM issues is one the test caused. */
    private static final long NEVER_IDLE_MICROS = 3_600_000_000L;

    private static SwitchNode node(OrderRecordingTransport t, int hosts, int tm) {
        return node(t, IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).build(), hosts, tm);
    }

    /** Without stamp batching unless the test asks for it: what a test stamps does not depend on timing. */
    private static SwitchNode node(OrderRecordingTransport t, IsotachConfig config, int hosts, int tm) {
        return new SwitchNode(t, config.toBuilder().stampBatchNanos(0).build(), hosts, tm, System::nanoTime);
    }

    /** A one-packet isochron stamped {@code ts} whose clock section carries the sender's mark ahead. */
    private static MemorySegment isoMarkedAhead(long ts, long mark) {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.ISO);
        Frame.u8(f, Frame.O_BYTE2, ISO_MBM);
        Frame.u8(f, Frame.O_BYTE3, ONE_PACKET);
        Frame.i64(f, Frame.O_ISO_TIMESTAMP, ts);
        ClockSection.addMark(f, Frame.O_ISO_CLOCK, mark, mark);
        return f;
    }

    private static void ship(SwitchNode n, int dest) {
        n.ship(dest, ISO_MBM, ONE_PACKET, 0, 0, 0, 0, 0, false, 0, MemorySegment.NULL, 0, -1);
    }

    private static List<HostLink.Record> eops(SwitchNode n) {
        List<HostLink.Record> out = new ArrayList<>();
        while (true) {
            HostLink.Record r = new HostLink.Record();
            if (!n.take(r)) {
                return out;
            }
            if (r.type == HostLink.END_OF_PULSE) {
                out.add(r);
            }
        }
    }

    private static int flags(Sent s) {
        return ClockSection.flags(s.segment(), Frame.clockOffset(s.kind()));
    }

    @Test
    void anIsochronCarriesItsSendersMarkAheadAndWakeUpInTheSameFrame() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2); // host 1; the TM runs on host 0
        SwitchNode n = node(t, 2, 0);
        n.onClock(0, token(0, 0, 0));
        int before = t.sent().size();
        ship(n, 0);
        List<Sent> after = t.sent().subList(before, t.sent().size());
        assertThat(after).as("one frame for the isochron, its mark ahead and the wake-up").hasSize(1);
        Sent iso = after.get(0);
        assertThat(iso.kind()).isEqualTo(Frame.ISO);
        assertThat(iso.i64(Frame.O_ISO_TIMESTAMP)).isEqualTo(1);
        assertThat(flags(iso)).isEqualTo(ClockSection.HAS_MARK | ClockSection.HAS_NEED);
        MemorySegment h = iso.segment();
        assertThat(ClockSection.markOf(h, Frame.O_ISO_CLOCK)).as("marks the token it stamped under").isEqualTo(0);
        assertThat(ClockSection.seenOf(h, Frame.O_ISO_CLOCK)).as("acknowledges only the token it saw").isEqualTo(0);
        assertThat(ClockSection.needOf(h, Frame.O_ISO_CLOCK)).as("time must reach the isochron's pulse").isEqualTo(1);
    }

    @Test
    void anSiuMarksAtMostOnePulseAheadOfItsLastToken() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, 2, 0);
        n.onClock(0, token(0, 0, 0));
        ship(n, 0); // T_cur 0: stamped 1, marks 0 ahead
        ship(n, 0); // T_cur 1 (ahead): stamped 2, no second mark ahead
        ship(n, 0);
        n.onClock(0, token(1, 0, 0)); // the token catches up
        ship(n, 0); // T_cur 1 again equals the token: stamped 2 and may mark 1 ahead
        ship(n, 0); // T_cur 2: stamped 3
        List<Sent> isos = t.sent(Frame.ISO);
        assertThat(isos).extracting(s -> s.i64(Frame.O_ISO_TIMESTAMP)).containsExactly(1L, 2L, 2L, 2L, 3L);
        assertThat(isos).extracting(s -> (flags(s) & ClockSection.HAS_MARK) != 0)
                .as("which isochrons marked ahead").containsExactly(true, false, false, true, false);
    }

    @Test
    void isochronsStampedWithinTheBatchingPeriodShareAPulseAndTheirTimeIsAskedForWhenItEnds() {
        long[] now = {0};
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2); // host 1; the TM runs on host 0
        IsotachConfig config = IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(4000).build();
        SwitchNode n = new SwitchNode(t, config, 2, 0, () -> now[0]);
        n.onClock(0, token(0, 0, 0));
        ship(n, 0); // the first asks: marks 0 ahead, stamped 1, needs 1
        now[0] += 1000;
        ship(n, 0); // within the period: T_cur 1 (ahead), stamped 2, no mark ahead, no ask
        now[0] += 1000;
        ship(n, 0);
        List<Sent> isos = t.sent(Frame.ISO);
        assertThat(isos).extracting(s -> s.i64(Frame.O_ISO_TIMESTAMP)).containsExactly(1L, 2L, 2L);
        assertThat(isos).extracting(SwitchNodeClockTest::flags)
                .containsExactly(ClockSection.HAS_MARK | ClockSection.HAS_NEED, 0, 0);
        int before = t.sent().size();
        n.tick();
        assertThat(t.sent()).as("a poll within the period asks for nothing").hasSize(before);
        now[0] += 2000;
        n.tick(); // the period is over: the pulse the batch was stamped into is asked for
        List<Sent> after = t.sent().subList(before, t.sent().size());
        assertThat(after).hasSize(1);
        assertThat(flags(after.get(0))).isEqualTo(ClockSection.HAS_NEED);
        assertThat(ClockSection.needOf(after.get(0).segment(), Frame.O_CLOCK)).isEqualTo(2);
    }

    @Test
    void anIsochronStampedAfterTheHostTookAPacketAsksAtOnceWithinThePeriod() {
        for (boolean answers : new boolean[] {false, true}) {
            long[] now = {0};
            OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
            IsotachConfig config =
                    IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(4000).build();
            SwitchNode n = new SwitchNode(t, config, 2, 0, () -> now[0]);
            n.onClock(0, token(0, 0, 0));
            ship(n, 0); // asks: marks 0 ahead, stamped 1
            n.onClock(0, token(1, 0, 0));
            if (answers) {
                n.onIso(0, isoMarkedAhead(2, 1)); // a ping
            }
            eops(n); // the host takes what its link holds: its own marker and EOPs, and the ping if one came
            now[0] += 1000; // within the period
            ship(n, 0);
            List<Sent> isos = t.sent(Frame.ISO);
            Sent reply = isos.get(isos.size() - 1);
            assertThat(flags(reply)).as(answers ? "an answer marks ahead and asks at once" : "batched as before")
                    .isEqualTo(answers ? ClockSection.HAS_MARK | ClockSection.HAS_NEED : 0);
        }
    }

    @Test
    void aHostThatPollsWithoutStampingAsksForWhatItOwesWithinThePeriod() {
        long[] now = {0};
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        IsotachConfig config = IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(4000).build();
        SwitchNode n = new SwitchNode(t, config, 2, 0, () -> now[0]);
        n.onClock(0, token(0, 0, 0));
        ship(n, 0);
        n.tick(); // the poll inside iso_send: a stamp since the last poll
        ship(n, 0); // owes the ask for pulse 2
        n.tick();
        int before = t.sent().size();
        n.tick(); // the application waits: no stamp since the last poll, and the clock has not moved
        List<Sent> after = t.sent().subList(before, t.sent().size());
        assertThat(after).as("the burst is over: its time is asked for at once").hasSize(1);
        assertThat(flags(after.get(0))).isEqualTo(ClockSection.HAS_NEED);
        assertThat(ClockSection.needOf(after.get(0).segment(), Frame.O_CLOCK)).isEqualTo(2);
    }

    @Test
    void aTokenSettlesAnOwedAskWithItsMarks() {
        long[] now = {0};
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        IsotachConfig config = IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(4000).build();
        SwitchNode n = new SwitchNode(t, config, 2, 0, () -> now[0]);
        n.onClock(0, token(0, 0, 0));
        ship(n, 0);
        ship(n, 0); // owes the ask for pulse 2
        n.onClock(0, token(1, 0, 0)); // its marks carry the need
        Sent last = t.sent().get(t.sent().size() - 1);
        assertThat(ClockSection.needOf(last.segment(), Frame.clockOffset(last.kind()))).isEqualTo(2);
        int before = t.sent().size();
        now[0] += 10_000;
        n.tick();
        assertThat(t.sent()).as("nothing owed any more").hasSize(before);
    }

    @Test
    void aReceiverClosesAPulseOnTheMarkAheadWithoutWaitingForTheSendersNextToken() {
        // Host 2 of 3 (TM on host 0). It has tokens 0..2 and host 0's mark 1; host 1 has seen token 1 only and stamps
        // an isochron 1 + 1 = 2, marking 1 ahead: host 2 closes pulse 2 with the packet, not after host 1's token 2.
        OrderRecordingTransport t = new OrderRecordingTransport(2, 3);
        SwitchNode n = node(t, 3, 0);
        for (long p = 0; p <= 2; p++) {
            n.onClock(0, token(p, 0, 0));
        }
        n.onClock(0, mark(1));
        n.onClock(1, mark(0));
        assertThat(n.closedPulse()).as("pulse 2 still needs host 1's mark 1").isEqualTo(1);
        eops(n);
        n.onIso(1, isoMarkedAhead(2, 1));
        assertThat(n.closedPulse()).isEqualTo(2);
        List<HostLink.Record> eops = eops(n);
        assertThat(eops).hasSize(1);
        assertThat(eops.get(0).pulse).isEqualTo(2);
        assertThat(eops.get(0).a).as("the packet is in the pulse it closed").isEqualTo(1);
    }

    @Test
    void theTokenManagersTokenAndMarkRideBehindTheIsochronItJustStamped() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2); // host 0 runs the TM
        SwitchNode n = node(t, 2, 0);
        n.startClock(); // TOKEN(0): a CLOCK frame of its own, nothing queued to ride on
        n.onClock(1, mark(-1)); // host 1 acknowledges token 0
        int before = t.sent().size();
        ship(n, 1); // stamped 0 + 1 = 1; time must reach 1: the TM issues TOKEN(1) at once, host 0 marks 0
        List<Sent> after = t.sent().subList(before, t.sent().size());
        assertThat(after).extracting(Sent::kind).containsExactly(Frame.ISO);
        Sent iso = after.get(0);
        MemorySegment h = iso.segment();
        assertThat(flags(iso)).isEqualTo(ClockSection.HAS_TOKEN | ClockSection.HAS_MARK);
        assertThat(ClockSection.tokenPulse(h, Frame.O_ISO_CLOCK)).isEqualTo(1);
        assertThat(ClockSection.markOf(h, Frame.O_ISO_CLOCK)).isEqualTo(0);
        assertThat(ClockSection.seenOf(h, Frame.O_ISO_CLOCK)).as("the TM's host has seen token 1").isEqualTo(1);
    }

    @Test
    void consecutiveTokensForALinkRideInOneSectionAsARun() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2);
        SwitchNode n = node(t, IsotachConfig.builder().distance(3).idleTickMicros(NEVER_IDLE_MICROS).build(), 2, 0);
        n.startClock();
        n.onClock(1, mark(-1));
        int before = t.sent().size();
        ship(n, 1); // stamped 0 + 3 = 3: the TM issues tokens 1, 2 and 3 at once (window 4)
        List<Sent> after = t.sent().subList(before, t.sent().size());
        assertThat(after).extracting(Sent::kind).as("the isochron carries all three").containsExactly(Frame.ISO);
        MemorySegment iso = after.get(0).segment();
        assertThat(flags(after.get(0))).isEqualTo(ClockSection.HAS_TOKEN | ClockSection.HAS_MARK);
        assertThat(ClockSection.tokenPulse(iso, Frame.O_ISO_CLOCK)).isEqualTo(3);
        assertThat(ClockSection.tokenRun(iso, Frame.O_ISO_CLOCK)).as("tokens 1..3").isEqualTo(2);
        assertThat(ClockSection.markOf(iso, Frame.O_ISO_CLOCK)).as("the marks merge to the last token's").isEqualTo(2);
    }

    @Test
    void aReceiverAppliesEachTokenOfARunAndTheEffectsOfTheLast() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, 2, 0);
        n.onClock(0, token(0, 0, 0));
        n.onClock(0, mark(0));
        MemorySegment run = ClockFrames.token(1, 0, 0);
        ClockSection.addToken(run, Frame.O_CLOCK, 2, 0, 0);
        ClockSection.addToken(run, Frame.O_CLOCK, 3, 0x01, 6); // a signal due at pulse 6
        n.onClock(0, run);
        assertThat(n.counters().get("siu.token")).isEqualTo(3);
        n.onClock(0, mark(5));
        n.onClock(0, token(4, 0, 0));
        n.onClock(0, token(5, 0, 0));
        n.onClock(0, token(6, 0, 0));
        List<HostLink.Record> eops = eops(n);
        assertThat(eops).as("pulses up to 6 close").isNotEmpty();
        HostLink.Record last = eops.get(eops.size() - 1);
        assertThat(last.pulse).isEqualTo(6);
        assertThat(last.b).as("the effect bits of the run's last token, at their pulse").isEqualTo(0x01);
        assertThat(n.counters().get("siu.drop.malformed")).isZero();
    }

    @Test
    void aRunThatDoesNotFollowTheLastTokenIsDroppedAndCounted() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, 2, 0);
        n.onClock(0, token(0, 0, 0));
        MemorySegment run = ClockFrames.token(2, 0, 0); // token 1 never came
        ClockSection.addToken(run, Frame.O_CLOCK, 3, 0, 0);
        n.onClock(0, run);
        assertThat(n.counters().get("siu.token")).isEqualTo(0);
        assertThat(n.counters().get("siu.drop.malformed")).isEqualTo(2);
    }

    @Test
    void aTokenAfterWhichTheWindowIsFullAsksForItsAcknowledgementAtOnce() {
        for (int window : new int[] {1, 4}) {
            OrderRecordingTransport t = new OrderRecordingTransport(0, 2);
            IsotachConfig config =
                    IsotachConfig.builder().tokenWindow(window).idleTickMicros(NEVER_IDLE_MICROS).build();
            SwitchNode n = node(t, config, 2, 0);
            n.startClock(); // TOKEN(0); host 1 has acknowledged nothing yet
            Sent first = t.sent().get(0);
            assertThat(flags(first) & ClockSection.ACK_NOW).as("window " + window)
                    .isEqualTo(window == 1 ? ClockSection.ACK_NOW : 0);
        }
    }

    @Test
    void aHostAcknowledgesAnAckNowTokenAtOnceAndLetsAnOrdinaryOneWaitForItsReply() {
        for (boolean ackNow : new boolean[] {false, true}) {
            long[] now = {0};
            OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
            IsotachConfig config = IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(0).build();
            SwitchNode n = new SwitchNode(t, config, 2, 0, () -> now[0]);
            n.tick(); // this thread is the host's, polling often: what it sends may linger for a reply
            n.tick();
            MemorySegment token = token(0, 0, 0);
            if (ackNow) {
                ClockSection.requestAck(token, Frame.O_CLOCK);
            }
            n.onClock(0, token);
            assertThat(t.sent(Frame.CLOCK)).as(ackNow ? "the mark goes at once" : "the mark waits for a reply")
                    .hasSize(ackNow ? 1 : 0);
        }
    }

    /** An automatic participation in barrier channel 1, as a host sends it to the TM. */
    private static MemorySegment automaticBarrier1() {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.BARRIER_SIGNAL_MARKER);
        Frame.u8(f, Frame.O_BYTE2, 0x02);
        Frame.u8(f, Frame.O_BYTE3, 37);
        Frame.i32(f, Frame.O_INT4, Frame.BARRIER_SIGNAL_AUTOMATIC);
        return f;
    }

    /** The effect bits of every token host 0's TM sent to host 1 after frame {@code from}, in order. */
    private static List<Integer> tokenBitsToHost1(OrderRecordingTransport t, int from) {
        return tokensToHost1(t, from, ClockSection::tokenBits);
    }

    /** The pulses of every token host 0's TM sent to host 1 after frame {@code from}, in order. */
    private static List<Long> tokensToHost1(OrderRecordingTransport t, int from) {
        return tokensToHost1(t, from, ClockSection::tokenPulse);
    }

    /** What {@code item} reads from every token host 0's TM sent to host 1 after frame {@code from}, in order. */
    private static <T> List<T> tokensToHost1(OrderRecordingTransport t, int from,
                                             BiFunction<MemorySegment, Long, T> item) {
        List<T> out = new ArrayList<>();
        List<Sent> all = t.sent();
        for (Sent s : all.subList(from, all.size())) {
            long at = Frame.clockOffset(s.kind());
            if (s.peer() == 1 && at >= 0 && (ClockSection.flags(s.segment(), at) & ClockSection.HAS_TOKEN) != 0) {
                out.add(item.apply(s.segment(), at));
            }
        }
        return out;
    }

    @Test
    void anExecutionOnlyAutomaticParticipantsJoinedWaitsForAnIdleTickUnlessSomeoneHasJoinedTheNextOne() {
        long[] now = {0};
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2); // host 0 runs the TM
        SwitchNode n = new SwitchNode(t, IsotachConfig.builder().idleTickMicros(1000).stampBatchNanos(0).build(), 2, 0,
                () -> now[0]);
        n.startClock();
        n.onClock(1, mark(-1));
        // First execution: both hosts join automatically; the first lazy completion goes out with the next token.
        n.shipBarrierSignalMarker(0x02, 37, true);
        n.onBarrierSignalMarker(1, automaticBarrier1());
        int from = t.sent().size();
        ship(n, 1);
        assertThat(tokenBitsToHost1(t, from)).as("tokens issued for the isochron").first().isEqualTo(0x02);
        // Both re-join at once (the report's rule, Isotach report §3.5.1, pp. 18-20). Busy tokens within the idle tick
        // do not carry it ...
        n.shipBarrierSignalMarker(0x02, 37, true);
        n.onBarrierSignalMarker(1, automaticBarrier1());
        now[0] += 100_000; // 100 us
        n.onClock(1, mark(0));
        from = t.sent().size();
        ship(n, 1);
        assertThat(tokenBitsToHost1(t, from)).as("busy tokens 100 us later").isNotEmpty().containsOnly(0);
        // ... but once a host has joined the next execution, the held completion goes with the very next token.
        n.shipBarrierSignalMarker(0x02, 37, true);
        now[0] += 100_000;
        n.onClock(1, mark(1));
        from = t.sent().size();
        ship(n, 1);
        assertThat(tokenBitsToHost1(t, from)).first().isEqualTo(0x02);
        // And with nobody waiting, an idle tick later at the latest.
        n.onBarrierSignalMarker(1, automaticBarrier1()); // completes the execution host 0 joined: held again
        from = t.sent().size();
        n.onClock(1, mark(2));
        assertThat(tokenBitsToHost1(t, from)).as("before the idle tick is up").isEmpty();
        now[0] += 1_000_000;
        n.tick();
        assertThat(tokenBitsToHost1(t, from)).as("the idle tick's token").first().isEqualTo(0x02);
    }

    @Test
    void theTokenManagersPollIssuesAnIdleTokenWhenTheIdleTickIsUpAndNotBefore() {
        long[] now = {0};
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2); // host 0 runs the TM
        SwitchNode n = new SwitchNode(t, IsotachConfig.builder().idleTickMicros(1000).stampBatchNanos(0).build(), 2, 0,
                () -> now[0]);
        n.startClock(); // TOKEN(0) at time 0
        n.onClock(1, mark(-1)); // host 1 has seen it: the window is open
        int from = t.sent().size();
        now[0] = 999_999;
        n.tick();
        assertThat(tokensToHost1(t, from)).as("a microsecond before the idle tick").isEmpty();
        now[0] = 1_000_000;
        n.tick();
        assertThat(tokensToHost1(t, from)).as("when it is up").containsExactly(1L);
        n.onClock(1, mark(0));
        now[0] = 1_500_000;
        n.tick();
        now[0] = 2_000_000;
        n.tick();
        assertThat(tokensToHost1(t, from)).as("one per idle tick").containsExactly(1L, 2L);
    }

    @Test
    void aTokenManagerThatOwesAnAskIssuesItsTimeAtThePollThatEndsTheBatchingPeriod() {
        long[] now = {0};
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2); // host 0 runs the TM
        IsotachConfig config = IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(4000).build();
        SwitchNode n = new SwitchNode(t, config, 2, 0, () -> now[0]);
        n.startClock();
        n.onClock(1, mark(-1));
        ship(n, 1); // marks ahead and asks: time for pulse 1
        n.onClock(1, mark(0));
        now[0] += 1000;
        ship(n, 1); // within the period: stamped into the next pulse, the ask owed
        long stamped = t.sent(Frame.ISO).get(1).i64(Frame.O_ISO_TIMESTAMP);
        n.onClock(1, mark(1));
        int from = t.sent().size();
        n.tick();
        assertThat(tokensToHost1(t, from)).as("a poll within the period").isEmpty();
        now[0] += 4000;
        n.tick();
        assertThat(tokensToHost1(t, from)).as("the poll after it: time for the owed ask").isNotEmpty()
                .last().isEqualTo(stamped);
    }

    @Test
    void theTokenManagersPollBetweenIdleTicksDoesNotWaitForTheSwitchNodesLock() throws Exception {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2); // host 0 runs the TM
        SwitchNode n = new SwitchNode(t, IsotachConfig.builder().idleTickMicros(NEVER_IDLE_MICROS).stampBatchNanos(0)
                .build(), 2, 0, System::nanoTime);
        n.startClock();
        Field f = SwitchNode.class.getDeclaredField("lock");
        f.setAccessible(true);
        Object lock = f.get(n);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Another thread inside the node, as a rank delivering into it inline is.
        Thread holder = new Thread(() -> {
            synchronized (lock) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder.start();
        try {
            held.await();
            Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                for (int i = 0; i < 1000; i++) {
                    n.tick();
                }
            }, "the TM's polls waited for the lock with no idle tick due and no ask owed");
        } finally {
            release.countDown();
            holder.join();
        }
    }

    @Test
    void clockItemsFromTheWrongSenderOrWithUnknownFlagsAreDroppedAndCounted() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        SwitchNode n = node(t, 3, 0);
        n.onClock(2, token(0, 0, 0)); // only the TM (host 0) issues tokens
        assertThat(n.counters().get("siu.token")).isEqualTo(-1);
        MemorySegment odd = token(0, 0, 0);
        Frame.u8(odd, Frame.O_CLOCK, 0x80 | ClockSection.HAS_TOKEN);
        n.onClock(0, odd);
        assertThat(n.counters().get("siu.token")).as("a section with unknown flags is not applied").isEqualTo(-1);
        MemorySegment wake = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(wake, Frame.CLOCK);
        ClockSection.addNeed(wake, Frame.O_CLOCK, 5);
        n.onClock(0, wake); // a wake-up for a rank that does not run the TM
        assertThat(n.counters().get("siu.drop.malformed")).isEqualTo(3);
        MemorySegment askWithoutToken = mark(0);
        ClockSection.requestAck(askWithoutToken, Frame.O_CLOCK);
        n.onClock(0, askWithoutToken);
        assertThat(n.counters().get("siu.drop.malformed")).as("an acknowledgement asked for without a token")
                .isEqualTo(4);
        n.onClock(0, token(0, 0, 0));
        assertThat(n.counters().get("siu.token")).isEqualTo(0);
    }

    @Test
    void theClockItemsOfARefusedIsoPacketStillCount() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, 2, 0);
        MemorySegment iso = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(iso, Frame.ISO);
        ClockSection.addToken(iso, Frame.O_ISO_CLOCK, 0, 0, 0);
        n.onClock(0, iso); // what the engine calls when the host refuses the packet
        assertThat(n.counters().get("siu.token")).isEqualTo(0);
    }

    @Test
    void marksMergeToTheLargestAndTokensOnlyExtendARunWithoutEffects() {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.CLOCK);
        ClockSection.clear(f, Frame.O_CLOCK);
        ClockSection.addMark(f, Frame.O_CLOCK, 4, 4);
        ClockSection.addMark(f, Frame.O_CLOCK, 3, 5);
        ClockSection.addNeed(f, Frame.O_CLOCK, 9);
        ClockSection.addNeed(f, Frame.O_CLOCK, 7);
        assertThat(ClockSection.markOf(f, Frame.O_CLOCK)).isEqualTo(4);
        assertThat(ClockSection.seenOf(f, Frame.O_CLOCK)).isEqualTo(5);
        assertThat(ClockSection.needOf(f, Frame.O_CLOCK)).isEqualTo(9);
        assertThat(ClockSection.addToken(f, Frame.O_CLOCK, 5, 0, 0)).isTrue();
        assertThat(ClockSection.addToken(f, Frame.O_CLOCK, 7, 0, 0)).as("not the next pulse").isFalse();
        assertThat(ClockSection.addToken(f, Frame.O_CLOCK, 6, 0x04, 8)).as("the run's next token").isTrue();
        assertThat(ClockSection.addToken(f, Frame.O_CLOCK, 7, 0, 9)).as("behind a token with effects").isFalse();
        assertThat(ClockSection.tokenPulse(f, Frame.O_CLOCK)).isEqualTo(6);
        assertThat(ClockSection.tokenRun(f, Frame.O_CLOCK)).isEqualTo(1);
        assertThat(ClockSection.tokenBits(f, Frame.O_CLOCK)).isEqualTo(0x04);
        assertThat(ClockSection.effectPulse(f, Frame.O_CLOCK)).isEqualTo(8);
    }
}
