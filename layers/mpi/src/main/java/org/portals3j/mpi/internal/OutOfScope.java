package org.portals3j.mpi.internal;

/**
 * Why each family that mpi-java-api.md section 3 puts out of scope raises {@code ERR_UNSUPPORTED_OPERATION}: the
 * members are present with Open MPI's exact signatures so that every program compiles, and fail when called, through
 * the error handler of the communicator involved (of {@code COMM_WORLD} for static members and for members of
 * windows and files, which can never be made).
 */
public final class OutOfScope {
    /** Dynamic process management and the name service. */
    public static final String DYNAMIC = "a Portals3J job has a fixed set of processes from its launch, and Portals"
            + " 3.2 cannot add processes to a job or join two jobs (dynamic processes are out of scope)";
    /** One-sided communication ({@code Win}). */
    public static final String RMA = "one-sided communication (Win) is out of scope for this layer: Portals 3.2 has"
            + " no atomics for accumulate and no lock protocol for passive target";
    /** MPI-IO ({@code File}). */
    public static final String IO = "MPI-IO (File) is out of scope for this layer; use java.nio file channels";

    private OutOfScope() {
    }
}
