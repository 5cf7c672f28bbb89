package org.portals3j.mpi.internal;

/**
 * An MPI error found by the engine or by an argument check: its error class and a message saying what to do.
 * Package {@code mpi} hands it to the communicator's error handler (an abort, or an {@code MPIException}).
 */
public final class MpiError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int errorClass;

    public MpiError(int errorClass, String message) {
        super(message, null, false, false);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
