package org.portals3j.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.transport.internal.PollHandover.MAX_GRACE_NANOS;
import static org.portals3j.transport.internal.PollHandover.MIN_GRACE_NANOS;

import org.junit.jupiter.api.Test;

/** When the protocol thread takes the receive path back from polling threads, on an injected clock. */
class PollHandoverTest {
    private static final long MS = 1_000_000L;
    /** udp.rtoMinMicros' default. */
    private static final long RTO_MIN = 10 * MS;

    @Test
    void withNobodyPollingTheProtocolThreadKeepsTheReceivePath() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        assertThat(h.keepAwayNanos(0)).isZero();
        assertThat(h.keepAwayNanos(5 * MS)).isZero();
    }

    @Test
    void aPollKeepsTheProtocolThreadAwayForTheGraceCountedFromThePoll() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        h.polled(10 * MS);
        assertThat(h.keepAwayNanos(10 * MS + 200_000)).isEqualTo(MIN_GRACE_NANOS - 200_000);
        assertThat(h.keepAwayNanos(11 * MS)).as("no poll since: the grace has run out").isZero();
    }

    @Test
    void aPollOrAStopAfterTheLastLookIsSeenByTheRecheckBeforeASleep() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        assertThat(h.polledSinceLook()).as("nobody polled").isFalse();
        assertThat(h.keepAwayNanos(10 * MS)).isZero();
        h.polled(10 * MS);
        assertThat(h.polledSinceLook()).as("polled after the look").isTrue();
        assertThat(h.keepAwayNanos(10 * MS + 1_000)).isPositive();
        assertThat(h.polledSinceLook()).as("the look saw it").isFalse();
        h.stopped(10 * MS + 2_000);
        assertThat(h.polledSinceLook()).as("a stop after the look").isTrue();
        assertThat(h.keepAwayNanos(10 * MS + 3_000)).isZero();
        assertThat(h.polledSinceLook()).isFalse();
    }

    @Test
    void theGraceDoublesEachTimeTheProtocolThreadFindsPollingGoingOnUpToTheCap() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        long now = 0;
        h.polled(now);
        long away = h.keepAwayNanos(now);
        assertThat(away).isEqualTo(MIN_GRACE_NANOS);
        long[] expected = {2 * MS, 4 * MS, 4 * MS, 4 * MS};
        for (long grace : expected) {
            now += away;
            h.polled(now - 1_000); // a poll a microsecond before it looks again
            away = h.keepAwayNanos(now);
            assertThat(h.graceNanos()).isEqualTo(grace);
            assertThat(away).isEqualTo(grace - 1_000);
        }
        assertThat(MAX_GRACE_NANOS).as("below the smallest retransmission timeout, 10 ms").isLessThan(10 * MS);
    }

    @Test
    void theCapStaysBelowASmallerMinimumRetransmissionTimeoutButNotBelowTheFirstGrace() {
        assertThat(new PollHandover(0, RTO_MIN).maxGraceNanos()).isEqualTo(MAX_GRACE_NANOS).isEqualTo(4 * MS);
        assertThat(new PollHandover(0, 2_500_000).maxGraceNanos()).isEqualTo(2 * MS);
        assertThat(new PollHandover(0, 100_000).maxGraceNanos()).isEqualTo(MIN_GRACE_NANOS);
        PollHandover h = new PollHandover(0, 2_500_000);
        long now = 0;
        for (int i = 0; i < 8; i++) {
            h.polled(now);
            now += h.keepAwayNanos(now);
        }
        assertThat(h.graceNanos()).isEqualTo(2 * MS);
    }

    @Test
    void aLookWithoutANewPollDoesNotGrowTheGrace() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        h.polled(0);
        h.keepAwayNanos(100_000);
        h.keepAwayNanos(300_000); // woken early (an unpark for something else): nobody polled since
        assertThat(h.graceNanos()).isEqualTo(MIN_GRACE_NANOS);
    }

    @Test
    void aStopNobodyAnnouncedIsNoticedWithinTheGraceAndResetsIt() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        long now = 0;
        for (int i = 0; i < 6; i++) { // continuous polling: the grace reaches the cap
            h.polled(now);
            now += h.keepAwayNanos(now);
        }
        assertThat(h.graceNanos()).isEqualTo(MAX_GRACE_NANOS);
        long lastPoll = now - 1;
        h.polled(lastPoll); // and then the thread returns from its wait and computes
        long away = h.keepAwayNanos(now);
        assertThat(away).isPositive();
        now += away;
        assertThat(now - lastPoll).isLessThanOrEqualTo(MAX_GRACE_NANOS);
        assertThat(h.keepAwayNanos(now)).isZero();
        assertThat(h.graceNanos()).isEqualTo(MIN_GRACE_NANOS);
    }

    @Test
    void theEndOfAStretchOfPollingIsReportedOnceAnnouncedOrNot() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        assertThat(h.pollingEnded()).as("nobody has polled").isFalse();
        h.polled(MS);
        h.polled(2 * MS);
        assertThat(h.keepAwayNanos(2 * MS)).isPositive();
        assertThat(h.keepAwayNanos(4 * MS)).isZero();
        assertThat(h.pollingEnded()).as("polling stopped, noticed").isTrue();
        assertThat(h.pollingEnded()).as("reported once").isFalse();
        h.polled(10 * MS);
        h.stopped(10 * MS);
        assertThat(h.keepAwayNanos(10 * MS)).isZero();
        assertThat(h.pollingEnded()).as("polling stopped, announced").isTrue();
        assertThat(h.pollingEnded()).isFalse();
    }

    @Test
    void anAnnouncedStopHandsTheReceivePathBackAtOnceWhateverTheGrace() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        long now = 0;
        for (int i = 0; i < 6; i++) {
            h.polled(now);
            now += h.keepAwayNanos(now);
        }
        h.polled(now);
        assertThat(h.keepAwayNanos(now)).isPositive();
        h.stopped(now + 10);
        assertThat(h.keepAwayNanos(now + 20)).isZero();
        assertThat(h.graceNanos()).isEqualTo(MIN_GRACE_NANOS);
    }

    @Test
    void whileAThreadPollsInsideAWaitTheProtocolThreadLooksOnlyAfterTheWaitLook() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        assertThat(h.waitLookNanos()).as("twice the tolerance, at most the cap").isEqualTo(2 * RTO_MIN)
                .isEqualTo(PollHandover.MAX_WAIT_LOOK_NANOS);
        long now = 100 * MS;
        h.waitBegins();
        h.polled(now);
        long away = h.keepAwayNanos(now + 1_000);
        assertThat(away).isEqualTo(h.waitLookNanos() - 1_000).isGreaterThan(MAX_GRACE_NANOS);
        now += 10 * MS; // the waiter was descheduled for longer than the grace cap: still no take-over
        assertThat(h.keepAwayNanos(now)).isEqualTo(h.waitLookNanos() - 10 * MS);
        h.polled(now);
        assertThat(h.keepAwayNanos(now + h.waitLookNanos() - 1)).as("polled since: away again").isPositive();
    }

    @Test
    void aWaiterThatStopsPollingWithoutLeavingItsWaitIsTakenOverAfterTheWaitLook() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        h.waitBegins();
        h.polled(MS);
        assertThat(h.keepAwayNanos(MS + h.waitLookNanos())).isZero();
        assertThat(h.pollingEnded()).isTrue();
    }

    @Test
    void aStopAnnouncedFromAWaitHandsTheReceivePathBackAtOnce() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        h.waitBegins();
        h.polled(5 * MS);
        assertThat(h.keepAwayNanos(5 * MS)).isPositive();
        h.waitEnds();
        h.stopped(5 * MS + 10);
        assertThat(h.keepAwayNanos(5 * MS + 20)).isZero();
    }

    @Test
    void anAnnouncedStopTakesOverAtOnceWhileAnotherThreadStillWaits() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        h.waitBegins();
        h.polled(5 * MS);
        h.stopped(5 * MS + 10); // a third thread (a sender that must wait for room) announces a stop
        assertThat(h.keepAwayNanos(5 * MS + 20)).isZero();
    }

    @Test
    void aThreadThatLeftItsWaitIsLookedAfterWithinTheGraceAgain() {
        PollHandover h = new PollHandover(0, RTO_MIN);
        h.waitBegins();
        h.polled(5 * MS);
        h.waitEnds(); // its condition held: it returns and computes
        long away = h.keepAwayNanos(5 * MS + 1_000);
        assertThat(away).isEqualTo(MIN_GRACE_NANOS - 1_000);
        assertThat(h.keepAwayNanos(5 * MS + MIN_GRACE_NANOS)).isZero();
    }

    @Test
    void theWaitLookFollowsASmallerToleranceButNeverFallsBelowTheGraceCap() {
        assertThat(new PollHandover(0, 2_500_000).waitLookNanos()).isEqualTo(5 * MS);
        assertThat(new PollHandover(0, 100_000).waitLookNanos()).isEqualTo(MIN_GRACE_NANOS);
        assertThat(new PollHandover(0, 60 * MS).waitLookNanos()).isEqualTo(PollHandover.MAX_WAIT_LOOK_NANOS);
    }
}
