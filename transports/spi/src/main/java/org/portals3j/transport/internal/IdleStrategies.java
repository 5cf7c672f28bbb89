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

    /** A new strategy of {@code mode} for one thread, parking with {@code parker}, on cores not oversubscribed. */
    public static IdleStrategy of(IdleMode mode, Parker parker) {
        return of(mode, false, parker);
    }

    /**
     * A new strategy of {@code mode} for one thread, parking with {@code parker}. {@code oversubscribed} (the job's
     * ranks on this host outnumber its cores, see {@link org.portals3j.transport.Oversubscription}) shortens
     * {@link IdleMode#BACKOFF}'s spin to {@link IdleMode#OVERSUBSCRIBED_SPINS}; the other modes are explicit choices
     * and stay as they are.
     */
    public static IdleStrategy of(IdleMode mode, boolean oversubscribed, Parker parker) {
        return switch (mode) {
            case SPIN -> new SpinningIdle();
            case YIELD -> new YieldingIdle();
            case PARK -> new ParkingIdle(IdleMode.PARK_NANOS, parker);
            case BACKOFF -> new BackoffIdle(oversubscribed ? IdleMode.OVERSUBSCRIBED_SPINS : IdleMode.BACKOFF_SPINS,
                    IdleMode.BACKOFF_YIELDS, IdleMode.BACKOFF_MIN_PARK_NANOS, IdleMode.PARK_NANOS, parker);
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
