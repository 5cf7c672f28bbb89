package org.portals3j.mpi;

import mpi.MPIException;

/** The error class a call fails with under {@code ERRORS_RETURN}. */
final class MpiErrors {
    /** A call that should fail. */
    @FunctionalInterface
    interface Call {
        void run() throws MPIException;
    }

    private MpiErrors() {
    }

    /** The error class of the {@code MPIException} {@code call} throws; fails if it throws none. */
    static int errorClassOf(Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            return e.getErrorClass();
        }
        throw new AssertionError("the call did not fail");
    }
}
