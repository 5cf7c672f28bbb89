package org.portals3j.lapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * N tasks of a LAPI job in this JVM, each with its own Portals library on the transport named, and the helpers the
 * tests share. Closing runs a Gfence on every task at once, then terminates them.
 */
final class LapiJob implements AutoCloseable {
    static final Duration PATIENCE = Duration.ofSeconds(20);

    final List<LapiContext> tasks = new ArrayList<>();
    final List<Portals> libraries = new ArrayList<>();
    /** Every asynchronous error any task reported. */
    final List<String> asyncErrors = new CopyOnWriteArrayList<>();
    private final List<Transport> endpoints;
    private final Arena arena = Arena.ofShared();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    private LapiJob(String transport, int n, IntFunction<LapiConfig> configs) throws Exception {
        Job job = Job.local(n);
        endpoints = LocalJob.openAll(Transports.require(transport), job, IdleMode.BACKOFF, Map.of());
        for (int r = 0; r < n; r++) {
            Portals portals = Portals.create(job, endpoints.get(r));
            libraries.add(portals);
            LapiConfig config = configs.apply(r).withErrorListener((c, type, src, what, cause) ->
                    asyncErrors.add("task " + c.taskId() + " from " + src + " (" + type + "): " + what));
            tasks.add(LapiContext.init(portals, config));
        }
    }

    static LapiJob start(int n) throws Exception {
        return new LapiJob("inmem", n, r -> LapiConfig.DEFAULT);
    }

    static LapiJob start(int n, LapiConfig config) throws Exception {
        return new LapiJob("inmem", n, r -> config);
    }

    static LapiJob start(String transport, int n, LapiConfig config) throws Exception {
        return new LapiJob(transport, n, r -> config);
    }

    LapiContext task(int r) {
        return tasks.get(r);
    }

    MemorySegment allocate(long bytes) {
        return arena.allocate(Math.max(1, bytes), 8).asSlice(0, bytes);
    }

    MemorySegment pattern(long bytes, int seed) {
        MemorySegment s = allocate(bytes);
        for (long i = 0; i < bytes; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 7));
        }
        return s;
    }

    /** Runs {@code body(r)} on every task at once, on its own thread, and waits for all. */
    void onAll(TaskBody body) throws Exception {
        List<Future<?>> fs = new ArrayList<>();
        for (int r = 0; r < tasks.size(); r++) {
            int rank = r;
            fs.add(pool.submit(() -> {
                body.run(rank);
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get(PATIENCE.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
    }

    /** Waits (generously) until {@code done} holds; fails the test if it never does. */
    /** The live thread named {@code name} (a layer's thread, such as {@code lapi-dispatch-1}). */
    static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name));
    }

    static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    /** Runs {@code call} on another thread and returns its future (for calls that block). */
    <T> Future<T> submit(Callable<T> call) {
        return pool.submit(call);
    }

    @Override
    public void close() throws Exception {
        try {
            if (tasks.stream().allMatch(LapiJob::live)) {
                onAll(r -> tasks.get(r).gfence());
            }
            for (LapiContext c : tasks) {
                c.close();
            }
        } finally {
            pool.shutdownNow();
            endpoints.forEach(Transport::close);
        }
    }

    private static boolean live(LapiContext c) {
        try {
            c.qenv(LapiQuery.TASK_ID);
            return true;
        } catch (LapiException e) {
            return false;
        }
    }

    @FunctionalInterface
    interface TaskBody {
        void run(int rank) throws Exception;
    }
}
