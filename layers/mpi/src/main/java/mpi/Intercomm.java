package mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.CommState;

/**
 * An inter-communicator. This version makes none: intercommunicators without process management
 * ({@code Comm.createIntercomm}, {@code merge}, the remote group) come with tier 2 of mpi-java-api.md section 3, and
 * those of dynamic processes ({@code spawn}, {@code accept}, {@code connect}) are out of scope. What it has is
 * {@link #getParent()}, which answers "was I spawned?" as a job of fixed size must: no.
 */
public final class Intercomm extends Comm {
    /** A null inter-communicator ({@code own} null). */
    Intercomm(@Nullable CommState own) {
        super(own);
    }

    /**
     * {@code MPI_COMM_GET_PARENT}: the communicator to the processes that spawned this one; a null communicator
     * ({@link #isNull()}), since no process of a Portals3J job is spawned.
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm(null);
    }
}
