package org.portals3j.transport;

import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * The idle strategies to choose from. Machines here have two cores, so the default,
 * {@link #BACKOFF}, spins only briefly before yielding and then parking: a waiting rank never keeps
 * a core from the rank it is waiting for for long.
 */
public enum IdleMode {
    /** Busy-spin ({@link Thread#onSpinWait()}). Lowest latency; needs a core per waiting thread. */
    SPIN {
        @Override
        public IdleStrategy newStrategy() {
            return new IdleStrategy() {
                @Override
                public void idle() {
                    Thread.onSpinWait();
                }

                @Override
                public void reset() {
                }
            };
        }
    },
    /** {@link Thread#yield()} on every check. */
    YIELD {
        @Override
        public IdleStrategy newStrategy() {
            return new IdleStrategy() {
                @Override
                public void idle() {
                    Thread.yield();
                }

                @Override
                public void reset() {
                }
            };
        }
    },
    /** Park for {@value #PARK_NANOS} ns per check (a waker may {@link LockSupport#unpark} earlier). */
    PARK {
        @Override
        public IdleStrategy newStrategy() {
            return new IdleStrategy() {
                @Override
                public void idle() {
                    LockSupport.parkNanos(PARK_NANOS);
                }

                @Override
                public void reset() {
                }
            };
        }
    },
    /**
     * Spin {@value #BACKOFF_SPINS} times, yield {@value #BACKOFF_YIELDS} times, then park with a
     * period doubling from 1 &micro;s to {@value #PARK_NANOS} ns. The default.
     */
    BACKOFF {
        @Override
        public IdleStrategy newStrategy() {
            return new Backoff();
        }
    };

    static final long PARK_NANOS = 100_000L;
    static final int BACKOFF_SPINS = 2_000;
    static final int BACKOFF_YIELDS = 50;

    /** A new strategy instance for one waiting thread. */
    public abstract IdleStrategy newStrategy();

    /**
     * Parses a mode name, case-insensitively.
     *
     * @throws IllegalArgumentException with the accepted names when {@code name} is not one of them
     */
    public static IdleMode parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown idle strategy '" + name
                    + "': use one of spin, yield, park, backoff", e);
        }
    }

    /** Spin, then yield, then park with exponential back-off. */
    private static final class Backoff implements IdleStrategy {
        private int spins;
        private int yields;
        private long parkNanos;

        Backoff() {
            reset();
        }

        @Override
        public void idle() {
            if (spins < BACKOFF_SPINS) {
                spins++;
                Thread.onSpinWait();
            } else if (yields < BACKOFF_YIELDS) {
                yields++;
                Thread.yield();
            } else {
                LockSupport.parkNanos(parkNanos);
                parkNanos = Math.min(parkNanos << 1, PARK_NANOS);
            }
        }

        @Override
        public void reset() {
            spins = 0;
            yields = 0;
            parkNanos = 1_000L;
        }
    }
}
