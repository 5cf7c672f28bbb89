package org.portals3j.transport.internal;

/**
 * Parks the calling thread for at most a period, as {@link java.util.concurrent.locks.LockSupport#parkNanos(long)}
 * does; injected into the idle strategies so that tests record the parks instead of waiting.
 */
@FunctionalInterface
public interface Parker {
    /** Parks the calling thread for at most {@code nanos} (an unpark or an interrupt may end it earlier). */
    void parkNanos(long nanos);
}
