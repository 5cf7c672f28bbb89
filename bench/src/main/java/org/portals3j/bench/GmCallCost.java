package org.portals3j.bench;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.portals3j.transport.gm.internal.nativeaccess.GmEvents;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.nativeaccess.Libgm;

/**
 * The cost of crossing into native code, for {@link GmPingPong}'s FFM line: an empty downcall (libc's {@code abs},
 * which does nothing but return) against the cheapest call the gm transport makes, {@code gmx_poll} with a zero
 * timeout on an idle port (through {@link GmPort}: its read lock, the downcall, libgm's look at its completion
 * queues). Each is timed one thread, in a loop, after a warm-up; the figure is nanoseconds per call.
 *
 * <p>The one MethodHandle here is libc's, for the baseline only; libgm's stay in the transport's boundary package.
 */
final class GmCallCost {
    private static final int WARMUP = 200_000;

    /** Nanoseconds per call of each kind. */
    record Costs(double emptyDowncall, double idlePoll) {
    }

    private GmCallCost() {
    }

    static Costs measure(String gmProvider, int calls) throws GmPort.GmException {
        MethodHandle abs = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("abs").orElseThrow(
                        () -> new IllegalStateException("libc has no abs")),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        timeEmpty(abs, WARMUP);
        double empty = timeEmpty(abs, calls);
        GmPort port = openFreePort(gmProvider);
        try (GmEvents events = new GmEvents(16)) {
            timePoll(port, events, WARMUP);
            return new Costs(empty, timePoll(port, events, calls));
        } finally {
            port.close();
        }
    }

    private static double timeEmpty(MethodHandle abs, int calls) {
        int sum = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            sum += absOf(abs, -i);
        }
        long t = System.nanoTime() - t0;
        if (sum == 42) { // keeps the calls' results alive
            System.out.print("");
        }
        return (double) t / calls;
    }

    private static int absOf(MethodHandle abs, int value) {
        try {
            return (int) abs.invokeExact(value);
        } catch (Throwable t) {
            throw new IllegalStateException("abs failed", t);
        }
    }

    private static double timePoll(GmPort port, GmEvents events, int calls) {
        int got = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            got += port.poll(events, 0);
        }
        long t = System.nanoTime() - t0;
        if (got != 0) {
            throw new IllegalStateException("an idle port returned " + got + " events");
        }
        return (double) t / calls;
    }

    /** The first free GM port from 7 down (other jobs on this host may hold some). */
    private static GmPort openFreePort(String gmProvider) throws GmPort.GmException {
        GmPort.GmException last = null;
        for (int id = 7; id >= 0; id--) {
            try {
                return GmPort.open(Libgm.load(), id, new GmPort.Options(gmProvider,
                        gmProvider.equals("shm") ? null : "127.0.0.1", 1, 8, 8, 0, 0, true));
            } catch (GmPort.GmException e) {
                last = e;
            }
        }
        throw last;
    }
}
