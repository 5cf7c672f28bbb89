package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.internal.PollHandover;

/** The protocol thread's idle strategy on a test clock, a fake socket and a recording parker: nothing sleeps. */
class ProtocolIdleTest {
    private long now = 5_000_000_000L;
    private final FakeIo io = new FakeIo(1);
    private final ProtocolSleep sleep = new ProtocolSleep(io);
    private final EndpointLifecycle lifecycle = new EndpointLifecycle();
    private final List<Long> parks = new ArrayList<>();
    private final PollHandover handover = new PollHandover(now, 10_000_000L);
    private boolean acksPending;
    private long deadline = Long.MAX_VALUE;
    private final ProtocolIdle.Timers timers = new ProtocolIdle.Timers() {
        @Override
        public boolean acksPending() {
            return acksPending;
        }

        @Override
        public long nextDeadline(long at) {
            return deadline;
        }
    };

    private ProtocolIdle idle(IdleMode mode) {
        lifecycle.moveTo(EndpointLifecycle.State.RUNNING);
        return new ProtocolIdle(0, mode, sleep, handover, timers, lifecycle, () -> now, parks::add);
    }

    @Test
    void oversubscribedItYieldsWhereItWouldSpinThenSleepsAsBefore() {
        lifecycle.moveTo(EndpointLifecycle.State.RUNNING);
        int[] yields = new int[1];
        ProtocolIdle idle = new ProtocolIdle(0, IdleMode.BACKOFF, true, sleep, handover, timers, lifecycle, () -> now,
                parks::add, () -> yields[0]++);
        deadline = now + ProtocolIdle.SPIN_NANOS + 2_500_000L;

        idle.idle(0);
        now += ProtocolIdle.SPIN_NANOS - 1;
        idle.idle(0);
        assertThat(yields[0]).as("two idle rounds in the spin window").isEqualTo(2);
        assertThat(io.awaits).isEmpty();

        now += 1;
        idle.idle(0);
        assertThat(io.awaits).containsExactly(3L);
        assertThat(yields[0]).isEqualTo(2);
    }

    @Test
    void notOversubscribedItNeverYields() {
        lifecycle.moveTo(EndpointLifecycle.State.RUNNING);
        int[] yields = new int[1];
        ProtocolIdle idle = new ProtocolIdle(0, IdleMode.BACKOFF, false, sleep, handover, timers, lifecycle, () -> now,
                parks::add, () -> yields[0]++);
        acksPending = true;

        for (int i = 0; i < 10; i++) {
            idle.idle(0);
        }

        assertThat(yields[0]).isZero();
    }

    @Test
    void onZeroWorkItSpinsBrieflyThenSleepsUntilTheNextTimer() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        deadline = now + ProtocolIdle.SPIN_NANOS + 2_500_000L;

        now += ProtocolIdle.SPIN_NANOS - 1;
        idle.idle(0);
        assertThat(io.awaits).as("still spinning").isEmpty();

        now += 1;
        idle.idle(0);
        assertThat(io.awaits).as("2.5 ms to the timer: 3 ms, rounded up").containsExactly(3L);
    }

    @Test
    void workStartsTheSpinAgain() {
        ProtocolIdle idle = idle(IdleMode.PARK);
        now += ProtocolIdle.SPIN_NANOS;
        idle.idle(1);
        now += ProtocolIdle.SPIN_NANOS - 1;
        idle.idle(0);

        assertThat(io.awaits).isEmpty();
    }

    @Test
    void aSleepLastsAtMostASecondAndIsFollowedBySpinning() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        io.duringAwait = () -> now += 7_000_000L;

        now += ProtocolIdle.SPIN_NANOS;
        idle.idle(0);
        assertThat(io.awaits).containsExactly(ProtocolIdle.MAX_SLEEP_MILLIS);
        idle.idle(0);
        assertThat(io.awaits).as("woken: it spins first").hasSize(1);
    }

    @Test
    void acknowledgementsStillOwedKeepItSpinning() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        acksPending = true;
        now += 10 * ProtocolIdle.SPIN_NANOS;

        idle.idle(0);

        assertThat(io.awaits).isEmpty();
    }

    @Test
    void spinAndYieldModesNeverSleep() {
        for (IdleMode mode : new IdleMode[] {IdleMode.SPIN, IdleMode.YIELD}) {
            ProtocolIdle idle = idle(mode);
            now += 10 * ProtocolIdle.SPIN_NANOS;
            idle.idle(0);
        }

        assertThat(io.awaits).isEmpty();
        assertThat(parks).isEmpty();
    }

    @Test
    void itDoesNotSleepOnceTheEndpointStopped() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        lifecycle.moveTo(EndpointLifecycle.State.CLOSED);
        now += ProtocolIdle.SPIN_NANOS;

        idle.idle(0);

        assertThat(io.awaits).isEmpty();
    }

    @Test
    void aSenderWakesItOnlyWhileItSleeps() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        sleep.wakeIfSleeping();
        assertThat(io.wakeups).isZero();
        io.duringAwait = sleep::wakeIfSleeping;

        now += ProtocolIdle.SPIN_NANOS;
        idle.idle(0);

        assertThat(io.wakeups).isEqualTo(1);
        sleep.wakeIfSleeping();
        assertThat(io.wakeups).as("awake again").isEqualTo(1);
    }

    /** The lost wake-up: the thread looked (nobody polled), then a poll landed before it announced its sleep. */
    @Test
    void aPollBetweenItsLastLookAndItsSleepKeepsItAwake() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        now += ProtocolIdle.SPIN_NANOS;
        assertThat(handover.keepAwayNanos(now)).as("its look: nobody polls, it takes the receive path").isZero();
        handover.polled(now); // a poller, as ProtocolThread.polled: the poll written, then the look for a sleep,
        sleep.wakeIfSleeping(); // which finds none to wake

        idle.idle(0);

        assertThat(io.wakeups).isZero();
        assertThat(io.awaits).as("it saw the poll and did not sleep").isEmpty();
        idle.idle(0);
        assertThat(io.awaits).as("woken as by a datagram: it spins first").isEmpty();
    }

    @Test
    void aPollItsLookAlreadySawLetsItSleep() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        handover.polled(now);
        now += PollHandover.MAX_GRACE_NANOS + ProtocolIdle.SPIN_NANOS;
        assertThat(handover.keepAwayNanos(now)).as("the poll is older than the grace: it takes over").isZero();

        idle.idle(0);

        assertThat(io.awaits).hasSize(1);
    }

    @Test
    void steppingAsideParksForTheTimeAskedThenSpins() {
        ProtocolIdle idle = idle(IdleMode.BACKOFF);
        now += ProtocolIdle.SPIN_NANOS;

        idle.stepAside(3_000_000L);
        idle.idle(0);
        idle.receivePathBusy();

        assertThat(parks).containsExactly(3_000_000L, ProtocolIdle.BUSY_PARK_NANOS);
        assertThat(io.awaits).as("the spin restarted after the park").isEmpty();
    }
}
