package mpi;

import java.util.function.Function;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BackgroundDup;
import org.portals3j.mpi.internal.CartTopology;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Neighbours;

/**
 * A communicator with a Cartesian grid (MPI 4.1 section 8.5), made by {@link Intracomm#createCart} or {@link #sub}.
 * Rank {@code r} of the grid is rank {@code r} of the communicator it was made from ({@code reorder} is ignored,
 * which MPI allows), and coordinates are row-major. Everything but {@code sub}, {@code dup} and {@code clone} is
 * local arithmetic ({@link CartTopology}).
 */
public final class CartComm extends Intracomm {
    private final CartTopology grid;

    /** A grid communicator this rank made, or a null one ({@code own} null: a process outside the grid). */
    CartComm(@Nullable CommState own, CartTopology grid) {
        super(own);
        this.grid = grid;
    }

    /** The communicator an {@code iDup} of {@code parent} makes in the background, with the same grid. */
    CartComm(CommState parent, BackgroundDup dup, CartTopology grid) {
        super(parent, dup);
        this.grid = grid;
    }

    @Override
    int topologyKind() {
        return MPI.CART;
    }

    @Override
    @Nullable Neighbours neighbours(int rank) {
        return grid.neighbours(rank);
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public CartComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** The same grid in a new context; collective. */
    @Override
    public CartComm dup() throws MPIException {
        return new CartComm(derive(Communicators::dup), grid);
    }

    // ---- covariant communicator extras (mpi-java-api.md section 2.13) -------------------------------------------

    /** {@link Intracomm#iDup()} keeping the grid: the result is usable once its request completes. */
    @Override
    public CartComm iDup() throws MPIException {
        return iDupAs((parent, dup) -> new CartComm(parent, dup, grid));
    }

    /** {@link #dup()}, with {@code info}'s hints on the new communicator instead of this one's. */
    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return new CartComm(dupState(Communicators::dup, info), grid);
    }

    /** The grid's dimensions and periods, and the calling process's coordinates. */
    public CartParms getTopo() throws MPIException {
        return local(c -> new CartParms(grid.dims(), grid.periods(), grid.coords(c.rank())));
    }

    /**
     * The rank at {@code coords}: a coordinate out of range wraps in a periodic dimension and is {@code ERR_ARG} in
     * another.
     */
    public int getRank(int[] coords) throws MPIException {
        return local(c -> grid.rank(coords));
    }

    /** The coordinates of {@code rank}; {@code ERR_RANK} for a rank outside the communicator. */
    public int[] getCoords(int rank) throws MPIException {
        return local(c -> grid.coords(rank));
    }

    /**
     * The ranks to receive from and send to for a shift by {@code disp} along {@code direction}: {@code PROC_NULL}
     * past the border of a non-periodic dimension; {@code ERR_DIMS} for a direction that is not a dimension.
     */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        return local(c -> {
            int[] pair = grid.shift(c.rank(), direction, disp);
            return new ShiftParms(pair[0], pair[1]);
        });
    }

    /**
     * The sub-grid of the dimensions {@code remainDims} keeps, with this process in it: a new communicator for each
     * set of coordinates in the dropped dimensions, made like {@code split} (collective). Keeping no dimension gives
     * a zero-dimensional grid of one process.
     */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        CartTopology.SubGrid part = local(c -> grid.sub(c.rank(), remainDims));
        return new CartComm(derive((c, ids) -> Communicators.split(c, ids, part.colour(), c.rank())), part.grid());
    }

    /**
     * The rank this process would have in a grid of {@code dims} and {@code periods} made from this communicator:
     * its rank, or {@code MPI.UNDEFINED} if the grid is smaller (no reordering, as in {@code createCart}).
     */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        return local(c -> {
            CartTopology other = CartTopology.of(dims, periods, c.size());
            return c.rank() < other.size() ? c.rank() : MPI.UNDEFINED;
        });
    }

    /**
     * Fills the zeros of {@code dims} with extents whose product with the others is {@code nnodes}, as close to
     * each other as possible and non-increasing; {@code ERR_DIMS} if the entries set do not divide {@code nnodes}
     * (through {@code COMM_WORLD}'s error handler). See {@link CartTopology#createDims} for the rule.
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.COMM_WORLD.collective(c -> CartTopology.createDims(nnodes, dims));
    }

    /** A local computation on this rank's state; its {@code MpiError} goes through the error handler. */
    private <T> T local(Function<CommState, T> query) throws MPIException {
        CommState c = state();
        try {
            return query.apply(c);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }
}
