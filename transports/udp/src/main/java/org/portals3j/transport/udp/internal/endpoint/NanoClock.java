package org.portals3j.transport.udp.internal.endpoint;

/**
 * A monotonic clock in nanoseconds, as {@link System#nanoTime()} (which {@link #SYSTEM} is).
 * The endpoint's classes read time only through one, so that unit tests drive it with a lambda.
 */
@FunctionalInterface
interface NanoClock {
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
