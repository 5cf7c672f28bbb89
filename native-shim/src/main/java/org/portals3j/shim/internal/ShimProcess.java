package org.portals3j.shim.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.JobBootstrap;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.TransportException;

/**
 * The Portals library of this C process: one per process, as the C API has no library argument. Made
 * by the first {@code PtlInit}, on the endpoint of the job the process belongs to
 * ({@link JobRuntime#join()}: {@code portals run}'s environment, Slurm, Open MPI, or a job of one).
 *
 * <p>{@link #live()} is what every forwarded call reads first: the library between a successful
 * {@code PtlInit} and {@code PtlFini}, else null ({@code PTL_NOINIT}).
 */
public final class ShimProcess {
    private static final Object LOCK = new Object();
    private static final AtomicBoolean JVM_EXITING = new AtomicBoolean();
    private static @Nullable Portals library;
    private static volatile @Nullable Portals live;
    private static volatile boolean joined;

    private ShimProcess() {
    }

    /** Notes when the JVM itself is exiting ({@code System.exit}, e.g. the job was lost), so that the C exit does not tear down twice. */
    public static void watchJvmExit() {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> JVM_EXITING.set(true), "portals3-shim-exit"));
        } catch (IllegalStateException e) {
            JVM_EXITING.set(true);
        }
    }

    /** The library if {@code PtlInit} has been called (and {@code PtlFini} not since), else null. */
    public static @Nullable Portals live() {
        return live;
    }

    /**
     * {@code PtlInit}: joins the job and makes the library on the first call, then initialises it.
     *
     * @return {@code max_interfaces}
     * @throws TransportException when the job cannot be joined (the message says what to fix)
     */
    public static int init() throws TransportException {
        synchronized (LOCK) {
            Portals p = library;
            if (p == null) {
                JobContext job = job();
                p = Portals.create(job.job(), job.transport());
                library = p;
            }
            int maxInterfaces = p.init();
            live = p;
            return maxInterfaces;
        }
    }

    /** {@code PtlFini}: every later call but {@code PtlInit} answers {@code PTL_NOINIT}. */
    public static void fini() {
        synchronized (LOCK) {
            Portals p = library;
            live = null;
            if (p != null) {
                p.fini();
            }
        }
    }

    /** This process's place in its job, without opening the endpoint ({@code ptl_rt_rank}, {@code ptl_rt_size}). */
    public static JobBootstrap bootstrap() throws TransportException {
        JobBootstrap b = JobRuntime.bootstrap();
        joined = true;
        return b;
    }

    /** This process's open place in its job ({@code ptl_rt_barrier}). */
    public static JobContext job() throws TransportException {
        JobContext job = JobRuntime.join();
        joined = true;
        return job;
    }

    /**
     * The C process is exiting ({@code atexit}): finalises the library if the program did not, and leaves
     * the job, closing the endpoint so that the peers are told rather than left to time out. Nothing to do
     * when the JVM is the one exiting (its own shutdown leaves the job).
     */
    public static void exit() throws TransportException {
        if (JVM_EXITING.get()) {
            return;
        }
        synchronized (LOCK) {
            if (library != null) {
                fini();
            }
            if (joined) {
                JobRuntime.bootstrap().close(); // closes the endpoint too, if it was opened
            }
        }
    }
}
