package org.portals3j.bench;

import java.util.ArrayList;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Runs an MPI program of N ranks as platform threads of this JVM, each on its own endpoint of a transport (on udp:
 * its own socket on loopback) and bound to its rank by {@link JobRuntime#runAsRank}, so that {@code MPI.Init} in it
 * joins that rank. Each rank's body returns its figures; the first failure ends the run.
 */
final class MpiRanks {
    /** The body of one rank: returns the figures it measured. */
    @FunctionalInterface
    interface Body {
        double[] run(int rank) throws Exception;
    }

    private static final long TIMEOUT_SECONDS = 600;

    private MpiRanks() {
    }

    /** Each rank's figures, indexed by rank. */
    static List<double[]> run(String transport, int size, Body body) throws Exception {
        Job job = Job.builder(size).build();
        List<Transport> endpoints = LocalJob.openAll(Transports.require(transport), job, IdleMode.BACKOFF, Map.of());
        AtomicReferenceArray<double[]> results = new AtomicReferenceArray<>(size);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        try {
            for (int r = 0; r < size; r++) {
                int rank = r;
                JobContext context = JobContext.inJvm(job, r, endpoints.get(r));
                threads.add(Thread.ofPlatform().name("mpi-bench-rank-" + r).start(() -> {
                    try {
                        JobRuntime.runAsRank(context, () -> results.set(rank, body.run(rank)));
                    } catch (Throwable e) {
                        if (!failure.compareAndSet(null, e)) {
                            failure.get().addSuppressed(e);
                        }
                        threads.forEach(Thread::interrupt);
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    failure.compareAndSet(null, new IllegalStateException(t.getName() + " did not end in "
                            + TIMEOUT_SECONDS + " s"));
                    threads.forEach(Thread::interrupt);
                }
            }
        } finally {
            endpoints.forEach(Transport::close);
        }
        Throwable first = failure.get();
        if (first instanceof Exception e) {
            throw e;
        } else if (first instanceof Error e) {
            throw e;
        }
        List<double[]> out = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            out.add(results.get(r));
        }
        return out;
    }
}
