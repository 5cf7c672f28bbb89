package mpi;

import org.portals3j.mpi.internal.ErrorHandling;

/**
 * An error handler: only the predefined {@code MPI.ERRORS_ARE_FATAL}, {@code MPI.ERRORS_ABORT} and
 * {@code MPI.ERRORS_RETURN} exist (Java has no user-defined handlers).
 */
public final class Errhandler {
    final ErrorHandling handling;

    Errhandler(ErrorHandling handling) {
        this.handling = handling;
    }

    static Errhandler of(ErrorHandling handling) {
        return switch (handling) {
            case FATAL -> MPI.ERRORS_ARE_FATAL;
            case ABORT -> MPI.ERRORS_ABORT;
            case RETURN -> MPI.ERRORS_RETURN;
        };
    }
}
