package mpi;

/**
 * The result of {@link CartComm#getTopo()}: the grid's extent and periodicity in each dimension, and the calling
 * process's coordinates in it. A snapshot: changing nothing in it changes the communicator.
 */
public final class CartParms {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** The number of dimensions. */
    public int getDimCount() {
        return dims.length;
    }

    /** The number of processes along dimension {@code i}. */
    public int getDim(int i) {
        return dims[i];
    }

    /** Whether dimension {@code i} wraps around. */
    public boolean getPeriod(int i) {
        return periods[i];
    }

    /** The calling process's coordinate in dimension {@code i}. */
    public int getCoord(int i) {
        return coords[i];
    }
}
