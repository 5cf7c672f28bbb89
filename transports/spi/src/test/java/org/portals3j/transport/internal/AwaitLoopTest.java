package org.portals3j.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Polling;

class AwaitLoopTest {
    /** Everything the loop does, in order: "poll", "stopped", "parking", "idle(n)", "park". */
    private final List<String> log = new ArrayList<>();
    private long now = 1_000L;
    private int clockReads;
    private boolean pollFinds;
    private final FakePolling polling = new FakePolling();
    private final AwaitLoop loop = new AwaitLoop(polling, () -> {
        clockReads++;
        return now;
    });

    /** Spins (no park) for {@code spinRounds} idle rounds, then parks, advancing the clock by {@code parkNanos}. */
    private IdleStrategy idle(int spinRounds, long parkNanos) {
        return new IdleStrategy() {
            private int rounds;

            @Override
            public void idle(int workCount) {
                log.add("idle(" + workCount + ")");
                if (workCount > 0) {
                    rounds = 0;
                } else if (parksNext()) {
                    log.add("park");
                    now += parkNanos;
                } else {
                    rounds++;
                }
            }

            @Override
            public void reset() {
                rounds = 0;
            }

            @Override
            public boolean parksNext() {
                return rounds >= spinRounds;
            }
        };
    }

    /** A wait whose condition holds from look number {@code checks + 1} on (the loop looks once before idling). */
    private class CountedWait implements AwaitLoop.Wait {
        private int checks;
        private final boolean handsOver;

        CountedWait(int checks, boolean handsOver) {
            this.checks = checks;
            this.handsOver = handsOver;
        }

        @Override
        public boolean isOver() {
            return --checks < 0;
        }

        @Override
        public boolean handsOver() {
            return handsOver;
        }

        @Override
        public void parking() {
            log.add("parking");
        }
    }

    @Test
    void aWaitAlreadyOverReturnsWithoutPollingOrIdling() {
        assertThat(loop.await(new CountedWait(0, true), idle(2, 10), AwaitLoop.FOREVER)).isTrue();

        assertThat(log).isEmpty();
        assertThat(clockReads).as("no deadline: the clock is never read").isZero();
    }

    @Test
    void itPollsWhileSpinningThenAnnouncesOnceBeforeItParks() {
        assertThat(loop.await(new CountedWait(6, true), idle(2, 10), AwaitLoop.FOREVER)).isTrue();

        assertThat(log).containsExactly("poll", "idle(0)", "poll", "idle(0)", "parking", "stopped",
                "idle(0)", "park", "idle(0)", "park");
        assertThat(clockReads).isZero();
    }

    @Test
    void workResetsTheStrategy() {
        pollFinds = true;

        loop.await(new CountedWait(4, true), idle(1, 10), AwaitLoop.FOREVER);

        assertThat(log).containsExactly("poll", "idle(1)", "poll", "idle(1)", "poll", "idle(1)");
    }

    @Test
    void aThreadThatNeverPolledParksWithoutTellingTheTransport() {
        loop.await(new CountedWait(3, true), idle(0, 10), AwaitLoop.FOREVER);

        assertThat(log).containsExactly("parking", "idle(0)", "park");
    }

    @Test
    void aWaitThatNeedsItsThreadKeepsWorkingBetweenParksAndAnnouncesNothing() {
        loop.await(new CountedWait(4, false), idle(1, 10), AwaitLoop.FOREVER);

        assertThat(log).containsExactly("poll", "idle(0)", "poll", "idle(0)", "park", "poll", "idle(0)", "park");
    }

    @Test
    void itReturnsFalseAtTheDeadline() {
        boolean over = loop.await(new CountedWait(Integer.MAX_VALUE, true), idle(1, 40), 100);

        assertThat(over).isFalse();
        assertThat(log).containsExactly("poll", "idle(0)", "parking", "stopped",
                "idle(0)", "park", "idle(0)", "park", "idle(0)", "park");
    }

    @Test
    void anInterruptDoesNotEndTheWaitAndIsKeptForTheCaller() {
        AwaitLoop.Wait wait = new CountedWait(4, true) {
            @Override
            public int work(Polling p) {
                Thread.currentThread().interrupt();
                return super.work(p);
            }
        };
        try {
            assertThat(loop.await(wait, idle(1, 10), AwaitLoop.FOREVER)).isTrue();

            assertThat(log).containsExactly("poll", "idle(0)", "parking", "stopped", "idle(0)", "park");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aWaitThatPollsSaysWhenItStartsAndEndsBeforeAnnouncingItsStop() {
        List<String> calls = new ArrayList<>();
        AwaitLoop watched = new AwaitLoop(new WaitWatchingPolling(calls), () -> now);

        assertThat(watched.await(new CountedWait(3, true), idle(1, 10), AwaitLoop.FOREVER)).isTrue();

        assertThat(calls).containsExactly("waitStarted", "poll", "waitEnded", "stopped");
    }

    @Test
    void aWaitThatEndsOnItsConditionSaysItsWaitEnded() {
        List<String> calls = new ArrayList<>();
        AwaitLoop watched = new AwaitLoop(new WaitWatchingPolling(calls), () -> now);

        assertThat(watched.await(new CountedWait(3, true), idle(5, 10), AwaitLoop.FOREVER)).isTrue();

        assertThat(calls).containsExactly("waitStarted", "poll", "poll", "waitEnded");
    }

    @Test
    void aWaitOverAtOnceNeitherStartsNorEnds() {
        List<String> calls = new ArrayList<>();
        AwaitLoop watched = new AwaitLoop(new WaitWatchingPolling(calls), () -> now);

        assertThat(watched.await(new CountedWait(0, true), idle(5, 10), AwaitLoop.FOREVER)).isTrue();

        assertThat(calls).isEmpty();
    }

    @Test
    void aWaitThatThrowsStillSaysItsWaitEnded() {
        List<String> calls = new ArrayList<>();
        AwaitLoop watched = new AwaitLoop(new WaitWatchingPolling(calls), () -> now);
        AwaitLoop.Wait failing = new CountedWait(2, true) {
            @Override
            public int work(Polling p) {
                p.poll();
                throw new IllegalStateException("from the work");
            }
        };

        try {
            watched.await(failing, idle(5, 10), AwaitLoop.FOREVER);
        } catch (IllegalStateException expected) {
            calls.add("thrown");
        }

        assertThat(calls).containsExactly("waitStarted", "poll", "waitEnded", "thrown");
    }

    /** Records every call of the polling hand-over, the wait's start and end included. */
    private static final class WaitWatchingPolling implements Polling {
        private final List<String> calls;

        WaitWatchingPolling(List<String> calls) {
            this.calls = calls;
        }

        @Override
        public boolean poll() {
            calls.add("poll");
            return false;
        }

        @Override
        public void pollingStopped() {
            calls.add("stopped");
        }

        @Override
        public void waitStarted() {
            calls.add("waitStarted");
        }

        @Override
        public void waitEnded() {
            calls.add("waitEnded");
        }
    }

    /** Records the loop's calls of poll and pollingStopped. */
    private final class FakePolling implements Polling {
        @Override
        public boolean poll() {
            log.add("poll");
            return pollFinds;
        }

        @Override
        public void pollingStopped() {
            log.add("stopped");
        }
    }
}
