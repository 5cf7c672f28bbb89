package org.portals3j.mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.portals3j.mpi.internal.JobAbort;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Runs an MPI program of N ranks as threads of the test's JVM on a transport: each rank thread is bound to its rank
 * by {@link JobRuntime#runAsRank}, so {@code MPI.Init} in it initialises that rank. Fails with the first rank's
 * failure, or when the ranks have not ended within the time given. A job abort ({@code ERRORS_ARE_FATAL},
 * {@code Comm.abort}) throws {@link Aborted} in the aborting rank instead of ending the JVM.
 */
public final class MpiJob {
    /** What a job abort throws in tests. */
    static final class Aborted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;

        Aborted(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /** The body of one rank. */
    @FunctionalInterface
    public interface Body {
        void run(int rank) throws Exception;
    }

    static {
        JobAbort.setAction((rank, status, message) -> {
            throw new Aborted(status, message);
        });
    }

    private MpiJob() {
    }

    /** {@code value}, which the test expects to be there. */
    static <T> T present(@Nullable T value) {
        if (value == null) {
            throw new AssertionError("expected a value, found null");
        }
        return value;
    }

    /** Runs {@code body} on {@code size} ranks over inmem. */
    static void run(int size, Body body) throws Exception {
        run("inmem", size, body);
    }

    /**
     * How long a job of {@code size} ranks may take: 60 s, and 30 s more per rank above 2, since a loaded 2-core
     * machine runs 8 rank threads (and on udp 8 protocol threads) for a job of 8.
     */
    static long boundSeconds(int size) {
        return 60 + 30L * Math.max(0, size - 2);
    }

    public static void run(String transport, int size, Body body) throws Exception {
        Job job = Job.builder(size).build();
        List<Transport> endpoints = LocalJob.openAll(Transports.require(transport), job, IdleMode.BACKOFF, Map.of());
        AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        try {
            for (int r = 0; r < size; r++) {
                int rank = r;
                JobContext context = JobContext.inJvm(job, r, endpoints.get(r));
                threads.add(Thread.ofPlatform().name("mpi-rank-" + r).unstarted(() -> {
                    try {
                        JobRuntime.runAsRank(context, () -> body.run(rank));
                    } catch (Throwable e) {
                        if (!failure.compareAndSet(null, e)) {
                            present(failure.get()).addSuppressed(e);
                        }
                        // the others may wait for this rank for ever: end their waits (they fail with ERR_OTHER)
                        threads.forEach(t -> {
                            if (t != Thread.currentThread()) {
                                t.interrupt();
                            }
                        });
                    }
                }));
            }
            threads.forEach(Thread::start);
            long bound = boundSeconds(size);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(bound);
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive() && failure.get() == null) {
                    failure.set(new AssertionError(t.getName() + " did not end within " + bound
                            + " s (a deadlock?)"));
                }
            }
            threads.forEach(Thread::interrupt);
        } finally {
            endpoints.forEach(Transport::close);
        }
        Throwable first = failure.get();
        if (first instanceof Exception e) {
            throw e;
        } else if (first instanceof Error e) {
            throw e;
        }
    }
}
