package org.portals3j.mpi.internal;

/** What a communicator does with an MPI error: the three predefined error handlers (mpi-java-api.md 1.9, 4.9). */
public enum ErrorHandling {
    /** {@code ERRORS_ARE_FATAL}: the whole job ends ({@link JobAbort}). The default. */
    FATAL,
    /** {@code ERRORS_ABORT}: the processes of the communicator end; here, as the job is one unit, the job ends. */
    ABORT,
    /** {@code ERRORS_RETURN}: the call throws {@code MPIException} with the error class. */
    RETURN
}
