package org.portals3j.isotach.internal.siu;

import java.util.function.LongSupplier;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The switch node's clock: the system's read without touching the shared supplier object, a test's through it
 * (docs/isotach-switch-node.md, "Nothing per frame on a cache line the ranks share").
 */
public final class NanoClock {
    /** The system clock: {@link #read} calls {@link System#nanoTime} directly for it. */
    public static final LongSupplier SYSTEM = System::nanoTime;

    private NanoClock() {
    }

    /** The time from {@code clock}: the system's without reading the supplier object, a test's through it. */
    static long read(LongSupplier clock) {
        return clock == SYSTEM ? System.nanoTime() : clock.getAsLong();
    }

    /**
     * A monitor whose header, written by every acquisition, is followed by padding rather than another object's fields.
     */
    static final class PaddedLock extends CacheLinePadding {
    }
}
