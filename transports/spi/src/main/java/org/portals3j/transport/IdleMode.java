package org.portals3j.transport;

import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import org.portals3j.transport.internal.IdleStrategies;

/**
 * The idle strategies to choose from. Machines here have two cores, so the default,
 * {@link #BACKOFF}, spins only briefly before yielding and then parking: a waiting rank never keeps
 * a core from the rank it is waiting for for long.
 */
public enum IdleMode {
    /** Busy-spin ({@link Thread#onSpinWait()}). Lowest latency; needs a core per waiting thread. */
    SPIN,
    /** {@link Thread#yield()} on every check. */
    YIELD,
    /** Park for {@value #PARK_NANOS} ns per check (a waker may {@link LockSupport#unpark} earlier). */
    PARK,
    /**
     * Spin {@value #BACKOFF_SPINS} times, yield {@value #BACKOFF_YIELDS} times, then park with a
     * period doubling from 1 &micro;s to {@value #PARK_NANOS} ns. The default. When the job's ranks on the host
     * outnumber its cores ({@link Oversubscription}) it spins only {@value #OVERSUBSCRIBED_SPINS} times: a rank
     * that waits gives its core to the one it waits for (as {@code mpi_yield_when_idle} does elsewhere).
     */
    BACKOFF;

    /** The longest park of {@link #PARK} and {@link #BACKOFF}, in nanoseconds. */
    public static final long PARK_NANOS = 100_000L;
    /** The spins of {@link #BACKOFF} before it yields. */
    public static final int BACKOFF_SPINS = 2_000;
    /** The spins of {@link #BACKOFF} before it yields, in a job whose ranks outnumber the host's cores. */
    public static final int OVERSUBSCRIBED_SPINS = 20;
    /** The yields of {@link #BACKOFF} before it parks. */
    public static final int BACKOFF_YIELDS = 50;
    /** The first park of {@link #BACKOFF}, in nanoseconds. */
    public static final long BACKOFF_MIN_PARK_NANOS = 1_000L;

    /** A new strategy instance for one waiting thread, on a host whose cores its job does not oversubscribe. */
    public IdleStrategy newStrategy() {
        return newStrategy(false);
    }

    /** A new strategy instance for one waiting thread; {@code oversubscribed}: see {@link Oversubscription}. */
    public IdleStrategy newStrategy(boolean oversubscribed) {
        return IdleStrategies.of(this, oversubscribed, LockSupport::parkNanos);
    }

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
}
