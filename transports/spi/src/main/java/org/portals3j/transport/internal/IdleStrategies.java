package org.portals3j.transport.internal;

import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;

/**
 * The strategy of each {@link IdleMode}, parking through a given {@link Parker}: the one place where the modes are
 * told apart.
 */
public final class IdleStrategies {
    private IdleStrategies() {
    }

    /** A new strategy of {@code mode} for one thread, parking with {@code parker}. */
    public static IdleStrategy of(IdleMode mode, Parker parker) {
        return switch (mode) {
            case SPIN -> new SpinningIdle();
            case YIELD -> new YieldingIdle();
            case PARK -> new ParkingIdle(IdleMode.PARK_NANOS, parker);
            case BACKOFF -> new BackoffIdle(IdleMode.BACKOFF_SPINS, IdleMode.BACKOFF_YIELDS,
                    IdleMode.BACKOFF_MIN_PARK_NANOS, IdleMode.PARK_NANOS, parker);
        };
    }

    /**
     * A new strategy of {@code mode} for an agent thread (a transport's own thread), which rests with {@code rest}
     * (sleeping until its next event, say) rather than parking for a period: it spins or yields as the mode does,
     * and the modes that park ({@link IdleMode#PARK} and {@link IdleMode#BACKOFF}) rest on every idle round, the
     * agent deciding how long it spins first.
     */
    public static IdleStrategy forAgent(IdleMode mode, Parker rest) {
        return switch (mode) {
            case SPIN -> new SpinningIdle();
            case YIELD -> new YieldingIdle();
            case PARK, BACKOFF -> new ParkingIdle(IdleMode.PARK_NANOS, rest);
        };
    }
}
