package org.portals3j.mpi.internal;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Ends the whole job: what {@code ERRORS_ARE_FATAL} and {@code Comm.abort} need (mpi-java-api.md section 4.9). The
 * rank prints one line on stderr and exits the JVM with a non-zero status; the launcher does the rest: {@code portals
 * run} stops the other ranks when one exits with a non-zero status (process mode), the ranks of in-JVM mode share
 * this JVM and end with it, and {@code mpirun} and {@code srun} end a job whose process exits with an error. The
 * status is the error code when it is 1 to 255, else 1 (an abort with code 0 still fails the job).
 *
 * <p>Tests replace the action ({@link #setAction}) to see the abort without ending their JVM.
 */
public final class JobAbort {

    /** What an abort does. It must not return normally (exit, or throw). */
    @FunctionalInterface
    public interface Action {
        void abort(int rank, int status, String message);
    }

    private static volatile Action action = JobAbort::exit;

    private JobAbort() {
    }

    /** Replaces the action (tests); {@code null} restores the exit. */
    public static void setAction(@Nullable Action newAction) {
        action = newAction == null ? JobAbort::exit : newAction;
    }

    /** Aborts the job from rank {@code rank} with {@code errorCode}; never returns normally. */
    public static RuntimeException abort(int rank, int errorCode, String message) {
        int status = errorCode >= 1 && errorCode <= 255 ? errorCode : 1;
        action.abort(rank, status, message);
        throw new IllegalStateException("the abort action returned: " + message);
    }

    private static void exit(int rank, int status, String message) {
        System.err.println("MPI: rank " + rank + ": " + message + "; aborting the job (exit status " + status + ")");
        System.err.flush();
        Thread.ofPlatform().daemon().name("mpi-abort-halt").start(() -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                // halt now
            }
            Runtime.getRuntime().halt(status);
        });
        System.exit(status);
    }
}
