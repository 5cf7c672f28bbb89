package org.portals3j.shim.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Portals;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.runtime.JobBootstrap;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.TransportException;

/**
 * The Portals library of this C process: one per process, as the C API has no library argument. Made
 * by the first {@code PtlInit}, on the endpoint of the job the process belongs to
 * ({@link JobRuntime#join()}: {@code portals run}'s environment, Slurm, Open MPI, or a job of one).
 *
 * <p>The first {@code PtlInit} also fixes the process's dialect: a {@link Portals} library if it was
 * compiled for Portals 3.2, a {@link Portals33} one if compiled with {@code -DPTL_DIALECT_33}. A library
 * is one dialect for its whole life, and a process has one endpoint, so a later call compiled for the
 * other dialect cannot be served: it is a {@link DialectMismatch}.
 *
 * <p>{@link #live()} and {@link #live33()} are what every forwarded call reads first: the library between
 * a successful {@code PtlInit} and {@code PtlFini}, else null.
 */
public final class ShimProcess {
    /** The configuration of the process's library: the engine's defaults. */
    public static final PortalsConfig CONFIG = PortalsConfig.DEFAULT;

    private static final Object LOCK = new Object();
    private static final AtomicBoolean JVM_EXITING = new AtomicBoolean();
    private static @Nullable Portals library;
    private static @Nullable Portals33 library33;
    private static volatile @Nullable Portals live;
    private static volatile @Nullable Portals33 live33;
    private static volatile boolean joined;

    private ShimProcess() {
    }

    /**
     * Notes when the JVM itself is exiting ({@code System.exit}, e.g. the job was lost), so that the C exit does not
     * tear down twice.
     */
    public static void watchJvmExit() {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> JVM_EXITING.set(true), "portals3-shim-exit"));
        } catch (IllegalStateException e) {
            JVM_EXITING.set(true);
        }
    }

    /** The 3.2 library if a 3.2 {@code PtlInit} has been called (and {@code PtlFini} not since), else null. */
    public static @Nullable Portals live() {
        return live;
    }

    /** The 3.3 library if a 3.3 {@code PtlInit} has been called (and {@code PtlFini} not since), else null. */
    public static @Nullable Portals33 live33() {
        return live33;
    }

    /** The dialect this process chose at its first {@code PtlInit}, or null before it. */
    public static @Nullable CDialect chosen() {
        synchronized (LOCK) {
            return library33 != null ? CDialect.PORTALS_3_3 : library != null ? CDialect.PORTALS_3_2 : null;
        }
    }

    /**
     * {@code PtlInit} compiled for Portals 3.2: joins the job and makes the 3.2 library on the first call,
     * then initialises it.
     *
     * @return {@code max_interfaces}
     * @throws TransportException when the job cannot be joined (the message says what to fix)
     * @throws DialectMismatch    when this process chose Portals 3.3
     */
    public static int init() throws TransportException, DialectMismatch {
        synchronized (LOCK) {
            if (library33 != null) {
                throw new DialectMismatch("PtlInit", CDialect.PORTALS_3_2, CDialect.PORTALS_3_3);
            }
            Portals p = library;
            if (p == null) {
                JobContext job = job();
                p = Portals.create(job.job(), job.transport(), CONFIG);
                library = p;
            }
            int maxInterfaces = p.init();
            live = p;
            return maxInterfaces;
        }
    }

    /**
     * {@code PtlInit} compiled for Portals 3.3: as {@link #init()}, with a {@link Portals33} library.
     *
     * @throws DialectMismatch when this process chose Portals 3.2
     */
    public static int init33() throws TransportException, DialectMismatch {
        synchronized (LOCK) {
            if (library != null) {
                throw new DialectMismatch("PtlInit", CDialect.PORTALS_3_3, CDialect.PORTALS_3_2);
            }
            Portals33 p = library33;
            if (p == null) {
                JobContext job = job();
                p = Portals33.create(job.job(), job.transport(), CONFIG);
                library33 = p;
            }
            int maxInterfaces = p.init();
            live33 = p;
            return maxInterfaces;
        }
    }

    /**
     * The Portals 3.2 library a LAPI context of this process runs on ({@code LAPI_Init}): the one {@code PtlInit}
     * made, else made here on the process's place in the job, without making it live for the program's Portals
     * calls (a program that calls Portals itself still calls {@code PtlInit} first).
     *
     * @throws DialectMismatch when this process chose Portals 3.3, which the LAPI layer does not run on
     */
    public static Portals lapiLibrary() throws TransportException, DialectMismatch {
        synchronized (LOCK) {
            if (library33 != null) {
                throw new DialectMismatch("LAPI_Init", CDialect.PORTALS_3_2, CDialect.PORTALS_3_3);
            }
            Portals p = library;
            if (p == null) {
                JobContext job = job();
                p = Portals.create(job.job(), job.transport(), CONFIG);
                library = p;
            }
            return p;
        }
    }

    /** {@code PtlFini} (3.2): every later 3.2 call but {@code PtlInit} answers {@code PTL_NOINIT}. */
    public static void fini() throws DialectMismatch {
        synchronized (LOCK) {
            if (library33 != null) {
                throw new DialectMismatch("PtlFini", CDialect.PORTALS_3_2, CDialect.PORTALS_3_3);
            }
            Portals p = library;
            live = null;
            if (p != null) {
                p.fini();
            }
        }
    }

    /** {@code PtlFini} (3.3): every later 3.3 call but {@code PtlInit} answers {@code PTL_NO_INIT}. */
    public static void fini33() throws DialectMismatch {
        synchronized (LOCK) {
            if (library != null) {
                throw new DialectMismatch("PtlFini", CDialect.PORTALS_3_3, CDialect.PORTALS_3_2);
            }
            Portals33 p = library33;
            live33 = null;
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
            Portals p = library;
            Portals33 p33 = library33;
            live = null;
            live33 = null;
            if (p != null) {
                p.fini();
            }
            if (p33 != null) {
                p33.fini();
            }
            if (joined) {
                JobRuntime.bootstrap().close(); // closes the endpoint too, if it was opened
            }
        }
    }
}
