package org.portals3j.mpi.internal;

import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Cartesian grid (MPI 4.1 section 8.5): its extent and periodicity per dimension, and the arithmetic between ranks
 * and coordinates, row-major (the last dimension varies fastest, MPI 4.1 section 8.5.4). Immutable; every member is
 * local. Ranks are those of the grid's communicator, which numbers the grid's processes 0..size-1 in that order.
 */
public final class CartTopology {
    private final int[] dims;
    private final boolean[] periods;
    private final int size;

    private CartTopology(int[] dims, boolean[] periods, int size) {
        this.dims = dims;
        this.periods = periods;
        this.size = size;
    }

    /**
     * A grid of {@code dims} with {@code periods}: ERR_ARG for arrays of different lengths, ERR_DIMS for an extent
     * below 1 or a grid of more than {@code available} processes.
     */
    public static CartTopology of(int @Nullable [] dims, boolean @Nullable [] periods, int available) {
        if (dims == null || periods == null || dims.length != periods.length) {
            throw new MpiError(ErrorClass.ARG, "dims and periods must be arrays of the same length (one entry per"
                    + " dimension)");
        }
        long product = 1;
        for (int d : dims) {
            if (d < 1) {
                throw new MpiError(ErrorClass.DIMS, "invalid dims " + Arrays.toString(dims) + ": every extent must"
                        + " be 1 or more (CartComm.createDims fills in zeros)");
            }
            product *= d;
            if (product > available) {
                throw new MpiError(ErrorClass.DIMS, "a grid of dims " + Arrays.toString(dims) + " needs more than the "
                        + available + " processes of the communicator: make it smaller");
            }
        }
        return new CartTopology(dims.clone(), periods.clone(), (int) product);
    }

    /** The number of processes in the grid. */
    public int size() {
        return size;
    }

    public int dimCount() {
        return dims.length;
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    /** The coordinates of {@code rank}; ERR_RANK if it is not in the grid. */
    public int[] coords(int rank) {
        if (rank < 0 || rank >= size) {
            throw new MpiError(ErrorClass.RANK, "invalid rank " + rank + ": the grid has ranks 0.." + (size - 1));
        }
        int[] coords = new int[dims.length];
        int rest = rank;
        for (int i = dims.length - 1; i >= 0; i--) {
            coords[i] = rest % dims[i];
            rest /= dims[i];
        }
        return coords;
    }

    /**
     * The rank at {@code coords}; a coordinate out of range wraps in a periodic dimension and is ERR_ARG in another
     * (MPI 4.1 section 8.5.5), as is an array of the wrong length.
     */
    public int rank(int @Nullable [] coords) {
        if (coords == null || coords.length != dims.length) {
            throw new MpiError(ErrorClass.ARG, "coords must have one entry per dimension (" + dims.length + ")");
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    throw new MpiError(ErrorClass.ARG, "coordinate " + c + " of dimension " + i + " is outside 0.."
                            + (dims[i] - 1) + " and the dimension is not periodic");
                }
                c = Math.floorMod(c, dims[i]);
            }
            rank = rank * dims[i] + c;
        }
        return rank;
    }

    /**
     * The source and destination of a shift of {@code rank} by {@code disp} along {@code direction} ({@code
     * [source, dest]}); {@code Constants.PROC_NULL} past a non-periodic border. ERR_DIMS for a direction that is not
     * a dimension of the grid.
     */
    public int[] shift(int rank, int direction, int disp) {
        if (direction < 0 || direction >= dims.length) {
            throw new MpiError(ErrorClass.DIMS, "invalid direction " + direction + ": the grid has dimensions 0.."
                    + (dims.length - 1));
        }
        int[] coords = coords(rank);
        int here = coords[direction];
        return new int[] {neighbour(coords, direction, here - (long) disp),
            neighbour(coords, direction, here + (long) disp)};
    }

    private int neighbour(int[] coords, int direction, long at) {
        int extent = dims[direction];
        if (at < 0 || at >= extent) {
            if (!periods[direction]) {
                return Constants.PROC_NULL;
            }
            at = Math.floorMod(at, (long) extent);
        }
        int[] moved = coords.clone();
        moved[direction] = (int) at;
        return rank(moved);
    }

    /**
     * The grid's neighbours in the order of the neighbourhood collectives (MPI 4.1 section 8.6): for each dimension,
     * the source then the destination of a shift by 1 ({@code PROC_NULL} past a non-periodic border), the same list
     * in and out. The message to neighbour {@code k} carries tag {@code k}, so the one from neighbour {@code k}
     * carries {@code k ^ 1} (its direction towards this process is the opposite one).
     */
    public Neighbours neighbours(int rank) {
        int[] all = new int[2 * dims.length];
        int[] outTags = new int[all.length];
        int[] inTags = new int[all.length];
        for (int d = 0; d < dims.length; d++) {
            int[] pair = shift(rank, d, 1);
            all[2 * d] = pair[0];
            all[2 * d + 1] = pair[1];
        }
        for (int k = 0; k < all.length; k++) {
            outTags[k] = k;
            inTags[k] = k ^ 1;
        }
        return new Neighbours(all, inTags, all.clone(), outTags);
    }

    /**
     * {@code sub(remainDims)}: which sub-grid {@code rank} falls in (its coordinates in the dropped dimensions, as
     * one number) and the sub-grid itself; ERR_ARG for an array of the wrong length.
     */
    public SubGrid sub(int rank, boolean @Nullable [] remain) {
        if (remain == null || remain.length != dims.length) {
            throw new MpiError(ErrorClass.ARG, "remainDims must have one entry per dimension (" + dims.length + ")");
        }
        int[] coords = coords(rank);
        int colour = 0;
        int kept = 0;
        for (int i = 0; i < dims.length; i++) {
            if (remain[i]) {
                kept++;
            } else {
                colour = colour * dims[i] + coords[i];
            }
        }
        int[] subDims = new int[kept];
        boolean[] subPeriods = new boolean[kept];
        int product = 1;
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (remain[i]) {
                subDims[j] = dims[i];
                subPeriods[j++] = periods[i];
                product *= dims[i];
            }
        }
        return new SubGrid(colour, new CartTopology(subDims, subPeriods, product));
    }

    /** The sub-grid a rank falls in: {@code colour} tells the sub-grids apart. */
    public record SubGrid(int colour, CartTopology grid) {
    }

    /**
     * {@code MPI_Dims_create}: fills the zeros of {@code dims} so that the product of all entries is {@code nnodes},
     * the filled entries as close to each other as possible and non-increasing (MPI 4.1 section 8.5.2). "As close
     * as possible" is decided as the smallest largest entry, then the smallest next one, and so on (the
     * lexicographically smallest non-increasing list): 24 in three gives 4, 3, 2. ERR_DIMS for a negative entry, for
     * {@code nnodes} below 1, or when the set entries do not divide {@code nnodes}.
     */
    public static void createDims(int nnodes, int @Nullable [] dims) {
        if (dims == null) {
            throw new MpiError(ErrorClass.ARG, "dims must be an array (one entry per dimension)");
        }
        if (nnodes < 1) {
            throw new MpiError(ErrorClass.DIMS, "invalid nnodes " + nnodes + ": it must be 1 or more");
        }
        long fixed = 1;
        int free = 0;
        for (int d : dims) {
            if (d < 0) {
                throw new MpiError(ErrorClass.DIMS, "invalid dims " + Arrays.toString(dims) + ": an entry must be 0"
                        + " (to be filled) or more");
            }
            if (d == 0) {
                free++;
            } else {
                fixed = Math.min(fixed * d, (long) Integer.MAX_VALUE + 1);
            }
        }
        if (nnodes % fixed != 0 || (free == 0 && fixed != nnodes)) {
            throw new MpiError(ErrorClass.DIMS, "the set entries of dims " + Arrays.toString(dims) + " do not "
                    + (free == 0 ? "multiply to " : "divide ") + nnodes);
        }
        int[] factors = new int[free];
        int rest = (int) (nnodes / fixed);
        if (free > 0 && !balanced(rest, new Factors(divisors(rest), primes(rest)), factors, 0, Integer.MAX_VALUE)) {
            throw new IllegalStateException("no factorisation of " + nnodes / fixed);
        }
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = factors[j++];
            }
        }
    }

    /**
     * Fills {@code out[at..]} with a non-increasing list of divisors of {@code rest}, each at most {@code limit},
     * whose product is {@code rest}, the lexicographically smallest there is; false if there is none. Trying the
     * candidates for each place from the smallest makes the first complete list the smallest.
     */
    private static boolean balanced(int rest, Factors of, int[] out, int at, int limit) {
        int places = out.length - at;
        if (places == 1) {
            out[at] = rest;
            return rest <= limit;
        }
        if (Math.pow(limit, places) < rest) {
            return false;
        }
        for (int p : of.primes()) {
            if (p > limit && rest % p == 0) {
                return false; // a prime factor no entry can hold: no list below this place
            }
        }
        for (int d : of.divisors()) {
            if (d > limit) {
                break;
            }
            if (rest % d != 0 || Math.pow(d, places) < rest) {
                continue;
            }
            out[at] = d;
            if (balanced(rest / d, of, out, at + 1, d)) {
                return true;
            }
        }
        return false;
    }

    /** The divisors and the prime factors of the number to share out, in increasing order. */
    private record Factors(int[] divisors, int[] primes) {
    }

    /** The distinct prime factors of {@code n}, in increasing order (at most 9 for an int). */
    private static int[] primes(int n) {
        int[] primes = new int[10];
        int count = 0;
        int rest = n;
        for (int p = 2; (long) p * p <= rest; p++) {
            if (rest % p == 0) {
                primes[count++] = p;
                while (rest % p == 0) {
                    rest /= p;
                }
            }
        }
        if (rest > 1) {
            primes[count++] = rest;
        }
        return Arrays.copyOf(primes, count);
    }

    /** The divisors of {@code n}, in increasing order. */
    private static int[] divisors(int n) {
        int[] small = new int[64];
        int[] large = new int[64];
        int count = 0;
        for (int d = 1; (long) d * d <= n; d++) {
            if (n % d == 0) {
                if (count == small.length) {
                    small = Arrays.copyOf(small, 2 * count);
                    large = Arrays.copyOf(large, 2 * count);
                }
                small[count] = d;
                large[count++] = n / d;
            }
        }
        int[] all = new int[2 * count];
        for (int i = 0; i < count; i++) {
            all[i] = small[i];
            all[2 * count - 1 - i] = large[i];
        }
        return small[count - 1] == large[count - 1] ? withoutDuplicate(all, count) : all;
    }

    private static int[] withoutDuplicate(int[] all, int middle) {
        int[] unique = new int[all.length - 1];
        System.arraycopy(all, 0, unique, 0, middle);
        System.arraycopy(all, middle + 1, unique, middle, all.length - middle - 1);
        return unique;
    }
}
