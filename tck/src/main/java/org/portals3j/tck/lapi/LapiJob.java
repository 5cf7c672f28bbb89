package org.portals3j.tck.lapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.AsyncErrorListener;
import org.portals3j.lapi.AsyncErrorType;
import org.portals3j.lapi.LapiConfig;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.portals.TckJob;

/**
 * A LAPI job for the kit: N tasks, each a {@link LapiContext} on its own Portals library of a {@link TckJob} on the
 * transport under test, all in this JVM. Every task's asynchronous errors are recorded ({@link #asyncErrors}).
 * Waits are conditions with the kit's patience, never sleeps.
 *
 * <pre>{@code
 * try (LapiJob job = LapiJob.start(2)) {
 *     LapiContext a = job.task(0), b = job.task(1);
 *     ...
 * }
 * }</pre>
 */
final class LapiJob implements AutoCloseable {
    /**
     * The bound on one test of the LAPI kit (its classes' {@code @Timeout}, on a thread of its own): a layer call
     * that never returns (a lost message, a deadlock) fails its test instead of stopping the run. Far above what
     * any test takes on a loaded machine: the tests' own waits give up after {@link TckTransport#trafficPatience()}.
     */
    static final long TEST_TIMEOUT_SECONDS = 180;

    /** One asynchronous error a task's listener was told of. */
    record AsyncError(int task, AsyncErrorType type, int srcTask, String what, @Nullable Throwable cause) {
    }

    private final TckJob portals;
    private final List<LapiContext> tasks = new ArrayList<>();
    private final ConcurrentLinkedQueue<AsyncError> errors = new ConcurrentLinkedQueue<>();
    private final Arena arena = Arena.ofShared();

    private LapiJob(int size, UnaryOperator<LapiConfig> configure) {
        portals = TckJob.builder(size).uninitialised().start();
        try {
            for (int t = 0; t < size; t++) {
                int task = t;
                LapiConfig config = configure.apply(defaults((ctx, type, src, what, cause) ->
                        errors.add(new AsyncError(task, type, src, what, cause))));
                tasks.add(LapiContext.init(portals.rank(t).portals(), config));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** {@code size} tasks with the layer's default limits. */
    static LapiJob start(int size) {
        return new LapiJob(size, c -> c);
    }

    /** {@code size} tasks, each configured by {@code configure} from the defaults. */
    static LapiJob start(int size, UnaryOperator<LapiConfig> configure) {
        return new LapiJob(size, configure);
    }

    /**
     * The layer's defaults (our choices where the man pages leave limits open), telling {@code listener} of
     * asynchronous errors.
     */
    static LapiConfig defaults(AsyncErrorListener listener) {
        return LapiConfig.DEFAULT.withErrorListener(listener);
    }

    LapiContext task(int t) {
        return tasks.get(t);
    }

    int size() {
        return tasks.size();
    }

    /** The asynchronous errors reported so far, by every task. */
    List<AsyncError> asyncErrors() {
        return List.copyOf(errors);
    }

    /** The asynchronous errors reported so far by {@code task}. */
    List<AsyncError> asyncErrors(int task) {
        return errors.stream().filter(e -> e.task() == task).toList();
    }

    /** Memory for the test, freed when the job closes. */
    MemorySegment allocate(long bytes) {
        return arena.allocate(Math.max(bytes, 1L), 8).asSlice(0, bytes);
    }

    /** {@code bytes} bytes holding {@code seed, seed+1, ...} (mod 256). */
    MemorySegment pattern(long bytes, int seed) {
        MemorySegment s = allocate(bytes);
        fill(s, seed);
        return s;
    }

    static void fill(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i));
        }
    }

    /** Gfence on every task at once (it is collective), each on its own thread; returns when all returned. */
    void gfenceAll() {
        runOnAll("Gfence", LapiContext::gfence);
    }

    /** Runs {@code call} on every task at once, each on its own thread, and waits for all of them. */
    void runOnAll(String what, Consumer<LapiContext> call) {
        List<Thread> threads = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (LapiContext c : tasks) {
            threads.add(Thread.ofPlatform().name("kit-" + what + "-" + threads.size()).start(() -> {
                try {
                    call.accept(c);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        long deadline = System.nanoTime() + TckTransport.trafficPatience().toNanos();
        for (Thread t : threads) {
            try {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                if (!t.join(Duration.ofMillis(left))) {
                    throw new AssertionError(what + " on every task did not return within "
                            + TckTransport.trafficPatience());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(what + " failed on a task: " + failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }
    }

    /** Waits (with the kit's patience) until {@code counter} of {@code task} reaches at least {@code value}. */
    static void awaitCounter(LapiContext task, LapiCounter counter, int value, String what) {
        awaitCondition(what + " reaches " + value, () -> task.getcntr(counter) >= value);
    }

    /** Waits until {@code condition} holds, polling, for at most the kit's traffic patience. */
    static void awaitCondition(String what, BooleanSupplier condition) {
        Duration patience = TckTransport.trafficPatience();
        long deadline = System.nanoTime() + patience.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": never became true within " + patience);
            }
            LockSupport.parkNanos(20_000);
        }
    }

    /** Waits for {@code latch} with the kit's traffic patience. */
    static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(TckTransport.trafficPatience().toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(what + ": never happened within " + TckTransport.trafficPatience());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting until " + what, e);
        }
    }

    /** Waits until {@code condition} holds; fails the test after the kit's traffic patience. */
    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TckTransport.trafficPatience().toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": never happened within " + TckTransport.trafficPatience());
            }
            LockSupport.parkNanos(20_000);
        }
    }

    /** Checks {@code condition} stays true for the quiet period (for something that must not happen). */
    static void holdsForQuietPeriod(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + TckTransport.quietPeriod().toNanos() * 4;
        do {
            if (!condition.getAsBoolean()) {
                throw new AssertionError(what + ": stopped holding");
            }
            LockSupport.parkNanos(20_000);
        } while (System.nanoTime() - end < 0);
    }

    @Override
    public void close() {
        for (LapiContext c : tasks) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // terminated by the test, or the test failed with the context in a bad state: close the rest
            }
        }
        portals.close();
        arena.close();
    }
}
