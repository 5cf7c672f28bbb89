package mpi;

/** An MPI handle that can be freed. */
public interface Freeable {
    /** Frees the handle. */
    void free() throws MPIException;
}
