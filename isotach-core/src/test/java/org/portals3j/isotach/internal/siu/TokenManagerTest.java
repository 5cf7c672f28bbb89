package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token manager alone: its window, idle tick (injected clock), wake-ups, effects and barrier counting. */
class TokenManagerTest {
    /** One token as the manager handed it to its links. */
    private record Token(long pulse, int bits, long effectPulse, boolean ackNow) {
    }

    private static final long NEVER_IDLE = Long.MAX_VALUE / 4;

    private final List<Token> sent = new ArrayList<>();
    private final long[] now = {0};
    private boolean[] alive = new boolean[0];

    private TokenManager manager(int hosts, int diameter, int window, long idleTickNanos) {
        alive = new boolean[hosts];
        Arrays.fill(alive, true);
        return new TokenManager(hosts, alive, diameter, window, idleTickNanos, () -> now[0],
                (pulse, bits, effect, ackNow) -> sent.add(new Token(pulse, bits, effect, ackNow)));
    }

    private List<Long> pulses() {
        return sent.stream().map(Token::pulse).toList();
    }

    @Test
    void startIssuesTokenZeroOnceAndNothingBeforeIt() {
        TokenManager tm = manager(2, 1, 4, NEVER_IDLE);
        tm.wakeUp(3);
        tm.maybeIssue(true);
        assertThat(sent).as("the clock has not started").isEmpty();
        tm.start();
        tm.start();
        assertThat(pulses()).startsWith(0L);
        assertThat(sent.stream().filter(t -> t.pulse() == 0)).hasSize(1);
    }

    @Test
    void timeNeededIsIssuedAsFarAsTheWindowAllowsAndTheRestOnAcknowledgement() {
        TokenManager tm = manager(2, 1, 2, NEVER_IDLE);
        tm.start(); // TOKEN(0); nobody has acknowledged anything (-1)
        tm.wakeUp(5);
        assertThat(pulses()).as("window 2 ahead of -1").containsExactly(0L, 1L);
        tm.mark(0, 0, 1);
        assertThat(pulses()).as("host 1 is still the slowest").containsExactly(0L, 1L);
        tm.mark(1, 0, 1);
        assertThat(pulses()).containsExactly(0L, 1L, 2L, 3L);
        tm.mark(0, 2, 3);
        tm.mark(1, 2, 3);
        assertThat(pulses()).as("up to the need, not beyond").containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(tm.issued()).isEqualTo(5);
        assertThat(tm.tokensIssued()).isEqualTo(6);
    }

    @Test
    void aTokenAfterWhichTheWindowIsFullAsksForItsAcknowledgementAtOnce() {
        TokenManager tm = manager(2, 1, 2, NEVER_IDLE);
        tm.start();
        tm.wakeUp(5);
        assertThat(sent).extracting(Token::ackNow).containsExactly(false, true);
    }

    @Test
    void anIdleTokenIsDueOncePerTickOfTheInjectedClock() {
        TokenManager tm = manager(2, 1, 4, 1000);
        assertThat(tm.idleTokenDue(0)).as("before the clock starts").isFalse();
        tm.start(); // at 0: the next idle token is due at 1000
        tm.mark(0, -1, 0);
        tm.mark(1, -1, 0);
        assertThat(tm.idleTokenDue(999)).isFalse();
        assertThat(tm.idleTokenDue(1000)).isTrue();
        tm.maybeIssue(false);
        assertThat(pulses()).as("nobody asked and the poll did not say the tick is up").containsExactly(0L);
        now[0] = 1000;
        tm.maybeIssue(true);
        assertThat(pulses()).as("one token per idle tick").containsExactly(0L, 1L);
        assertThat(tm.idleTokenDue(1999)).isFalse();
        assertThat(tm.idleTokenDue(2000)).isTrue();
    }

    @Test
    void withAnIdleTickOfZeroTimeRunsAsFastAsTheWindowAllows() {
        TokenManager tm = manager(1, 1, 3, 0);
        tm.start();
        assertThat(pulses()).as("start issues TOKEN(0) alone").containsExactly(0L);
        tm.maybeIssue(false);
        assertThat(pulses()).as("the next event issues up to the window").containsExactly(0L, 1L, 2L);
        assertThat(tm.idleTokenDue(Long.MAX_VALUE / 2)).as("no idle tick to wait for").isFalse();
    }

    @Test
    void aWakeUpBeyondTheHorizonIsClampedTo256PulsesAhead() {
        TokenManager tm = manager(2, 1, 1, NEVER_IDLE);
        tm.start();
        tm.wakeUp(1_000_000);
        assertThat(tm.need()).isEqualTo(256);
        tm.need(1_000_000); // the rank's own SIU is trusted
        assertThat(tm.need()).isEqualTo(1_000_000);
    }

    @Test
    void aMarkAcknowledgesNoMoreThanTheTokenAfterIt() {
        TokenManager tm = manager(1, 1, 1, NEVER_IDLE);
        tm.start();
        tm.mark(0, 2, 1_000);
        assertThat(tm.slowestAcknowledgement()).isEqualTo(3);
    }

    @Test
    void signalsRideTheNextTokenAndAreDueADiameterLater() {
        TokenManager tm = manager(2, 3, 4, NEVER_IDLE);
        tm.start();
        tm.barrierSignalMarker(1, 0x04 | 0x10, false);
        assertThat(sent.get(0).bits()).isZero();
        Token signalled = sent.get(1);
        assertThat(signalled.bits()).isEqualTo(0x14);
        assertThat(sent.subList(2, sent.size())).as("time advances to the effect, without it").extracting(Token::bits)
                .containsOnly(0);
        assertThat(signalled.effectPulse()).isEqualTo(signalled.pulse() + 3);
        assertThat(tm.need()).as("time must reach the effect").isGreaterThanOrEqualTo(signalled.effectPulse());
    }

    @Test
    void aBarrierCompletesOnceEveryLiveHostHasJoinedOnePerToken() {
        TokenManager tm = manager(3, 1, 8, NEVER_IDLE);
        tm.start();
        tm.barrierSignalMarker(0, 0x01, false);
        tm.barrierSignalMarker(0, 0x01, false); // host 0 joins the next execution too
        tm.barrierSignalMarker(1, 0x01, false);
        tm.barrierSignalMarker(1, 0x01, false);
        assertThat(sent).extracting(Token::bits).as("host 2 has not joined").containsOnly(0);
        tm.barrierSignalMarker(2, 0x01, false);
        List<Integer> bits = sent.stream().map(Token::bits).filter(b -> b != 0).toList();
        assertThat(bits).as("one completion; the second execution still misses host 2").containsExactly(0x01);
        alive[2] = false;
        tm.hostDown();
        bits = sent.stream().map(Token::bits).filter(b -> b != 0).toList();
        assertThat(bits).as("host 2 is down: the second completes on a token of its own").containsExactly(0x01, 0x01);
    }

    @Test
    void aHostCannotHaveMoreThan63BarrierExecutionsPending() {
        TokenManager tm = manager(2, 1, 4, NEVER_IDLE);
        tm.start();
        int refused = 0;
        for (int i = 0; i < 64; i++) {
            refused += tm.barrierSignalMarker(0, 0x03, false);
        }
        assertThat(refused).as("the 64th join of each channel").isEqualTo(2);
    }

    @Test
    void itsOwnHostsMarkDuringIssuingDoesNotReenterTheIssuingLoop() {
        boolean[] hosts = {true};
        List<Long> order = new ArrayList<>();
        TokenManager[] self = new TokenManager[1];
        TokenManager tm = new TokenManager(1, hosts, 1, 2, NEVER_IDLE, () -> 0L, (pulse, bits, effect, ackNow) -> {
            order.add(pulse);
            self[0].mark(0, pulse - 1, pulse); // what the manager's own SIU does on its token
            order.add(-pulse - 100);
        });
        self[0] = tm;
        tm.start();
        tm.wakeUp(3);
        assertThat(order).as("each token handed out whole before the next")
                .containsExactly(0L, -100L, 1L, -101L, 2L, -102L, 3L, -103L);
    }
}
