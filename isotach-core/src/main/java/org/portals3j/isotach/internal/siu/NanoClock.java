package org.portals3j.isotach.internal.siu;

import java.util.function.LongSupplier;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The switch node's clock, and why per-frame work reads no object that the ranks of a job share.
 *
 * <p>On inmem two ranks' threads run side by side, and after the collector has moved a job's objects (a young
 * collection in the middle of a run) one rank's shared, read-only objects may sit on the same cache line as what the
 * other rank writes on every frame: the ping-pong then ran 1.4-2.0x slower for the rest of the job, in 7 of 9 jobs
 * (noniso in none). The clock supplier was such an object (one lambda for all ranks, read at every stamp and poll),
 * the configuration another; so the node copies what it needs of the configuration, and the system clock is read
 * without touching the supplier.
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

    /** A monitor whose header, written by every acquisition, is followed by padding rather than another object's fields. */
    static final class PaddedLock extends CacheLinePadding {
    }
}
