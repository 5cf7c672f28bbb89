package org.portals3j.transport.gm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.Availability;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;

/** Jobs of gm endpoints in this JVM, skipped with the reason when libgm or the provider is missing. */
final class GmTestSupport {
    static final Duration PATIENCE = Duration.ofSeconds(20);

    private GmTestSupport() {
    }

    /** Skips the test, showing why, unless gm runs here over {@code provider}. */
    static void assumeAvailable(String provider) {
        Availability a = GmTransportProvider.availability(provider);
        Assumptions.assumeTrue(a.available(), "gm over " + provider + " is not available: " + a.reason());
    }

    /** Opens and starts {@code ranks} endpoints with one recorder each. */
    static List<Transport> start(int ranks, Map<String, String> options, List<Recorder> recorders)
            throws TransportException {
        List<Transport> endpoints = LocalJob.openAll(new GmTransportProvider(), Job.local(ranks), IdleMode.BACKOFF,
                options);
        for (Transport t : endpoints) {
            Recorder r = new Recorder();
            recorders.add(r);
            t.start(r);
        }
        return endpoints;
    }

    static MemorySegment pattern(Arena arena, int length, int seed) {
        MemorySegment m = arena.allocate(Math.max(1, length));
        for (int i = 0; i < length; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed));
        }
        return m.asSlice(0, length);
    }

    static byte[] patternBytes(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    /** Waits up to {@link #PATIENCE} for {@code condition}. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + PATIENCE + ": " + what);
            }
            Thread.sleep(5);
        }
    }
}
