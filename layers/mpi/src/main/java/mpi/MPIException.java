package mpi;

import org.portals3j.mpi.internal.ErrorClass;

/**
 * An MPI failure (Open MPI's {@code MPIException}; mpi-java-api.md section 1.9): checked. Under
 * {@code ERRORS_RETURN} it carries the error code and class of the MPI error; an exception made by the program,
 * or by a Java-level check (a call before {@code Init}), carries {@code ERR_UNKNOWN}.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    public MPIException(String message) {
        super(message);
        this.errorCode = ErrorClass.UNKNOWN;
        this.errorClass = ErrorClass.UNKNOWN;
    }

    public MPIException(Throwable cause) {
        super(cause);
        this.errorCode = ErrorClass.UNKNOWN;
        this.errorClass = ErrorClass.UNKNOWN;
    }

    /** An MPI error with its code and class. */
    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    /** The MPI error code. */
    public int getErrorCode() {
        return errorCode;
    }

    /** The MPI error class (one of {@code MPI.ERR_*}). */
    public int getErrorClass() {
        return errorClass;
    }
}
