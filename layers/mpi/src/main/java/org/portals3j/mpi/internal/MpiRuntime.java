package org.portals3j.mpi.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.TransportException;

/**
 * Which rank's MPI state a call acts on. A rank that is a process of its own has one, found in a static field. In a
 * JVM that runs several ranks as threads ({@code portals run --transport inmem}, and the tests), the rank of a thread
 * is the one {@link JobRuntime#runAsRank} bound it to (and every thread it starts): {@link JobRuntime#join()} in that
 * thread returns that rank's context, and its MPI state is found by that context. So the binding of a thread to a
 * rank is the job runtime's, and {@code MPI.Init} in such a thread initialises that rank, with nothing in package
 * {@code mpi} to say which.
 */
public final class MpiRuntime {
    private static final Map<JobContext, MpiProcess> IN_JVM = new ConcurrentHashMap<>();
    private static volatile @Nullable MpiProcess process;

    private MpiRuntime() {
    }

    /** The calling rank's MPI state, or null before {@code MPI.Init}. */
    public static @Nullable MpiProcess current() {
        JobContext inJvm = JobRuntime.currentInJvmRank();
        return inJvm != null ? IN_JVM.get(inJvm) : process;
    }

    /**
     * {@code MPI.Init}: joins the job and sets the rank up.
     *
     * @throws MpiError if MPI was initialised before on this rank
     * @throws TransportException if the job cannot be joined (a message saying what to fix)
     */
    public static MpiProcess init(int threadLevel) throws TransportException {
        JobContext job = JobRuntime.join();
        @Nullable JobContext inJvm = JobRuntime.currentInJvmRank();
        synchronized (job) { // per rank: the other in-JVM ranks initialise at the same time
            if (current() != null) {
                throw new MpiError(ErrorClass.OTHER, "MPI is already initialized.");
            }
            MpiProcess p = new MpiProcess(job, MpiConfig.from(System.getenv()), threadLevel);
            if (inJvm != null) {
                IN_JVM.put(inJvm, p);
            } else {
                process = p;
            }
            return p;
        }
    }

    /** {@code MPI.Finalize} of {@code p}: finishes its operations and leaves the job. */
    public static void finish(MpiProcess p) throws TransportException {
        p.finish();
    }
}
