package mpi;

/**
 * The result of {@link CartComm#shift(int, int)}: the rank this process receives from and the rank it sends to in
 * the shift, {@code MPI.PROC_NULL} past the border of a non-periodic dimension.
 */
public final class ShiftParms {
    private final int source;
    private final int dest;

    ShiftParms(int source, int dest) {
        this.source = source;
        this.dest = dest;
    }

    public int getRankSource() {
        return source;
    }

    public int getRankDest() {
        return dest;
    }
}
