package mpi;

import java.nio.Buffer;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BackgroundDup;
import org.portals3j.mpi.internal.CartTopology;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.DistGraphs;
import org.portals3j.mpi.internal.GraphTopology;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.OutOfScope;

/**
 * An intra-communicator: the type of {@code MPI.COMM_WORLD}, {@code MPI.COMM_SELF} and of the communicators made
 * from them by {@code dup}, {@code split} and {@code create} (collective over this communicator; see
 * {@code org.portals3j.mpi.internal.Communicators}). Adds {@code scan} and {@code exScan} to the collectives of
 * {@link Comm}.
 *
 * <p>The dynamic-process members ({@code spawn}, {@code spawnMultiple}, {@code accept}, {@code connect}, the port
 * and name service) are out of scope (mpi-java-api.md section 3): each raises {@code MPI.ERR_UNSUPPORTED_OPERATION}
 * through this communicator's error handler, or {@code COMM_WORLD}'s for the static ones.
 */
public class Intracomm extends Comm {
    Intracomm(int predefined) {
        super(predefined);
    }

    /** A communicator this rank made, or a null one ({@code own} null). */
    Intracomm(@Nullable CommState own) {
        super(own);
    }

    /** The communicator an {@code iDup} of {@code parent} makes in the background. */
    Intracomm(CommState parent, BackgroundDup dup) {
        super(parent, dup);
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        return new Intracomm(derive(Communicators::dup));
    }

    /**
     * The communicator of the ranks that pass the same {@code colour}, ranked by {@code key} and then by rank in
     * this one; a null communicator for colour {@code MPI.UNDEFINED}. A negative colour other than that is
     * {@code ERR_ARG}.
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        return new Intracomm(derive((c, ids) -> Communicators.split(c, ids, colour, key)));
    }

    /**
     * The communicator of {@code group} (a subgroup of this one's, the same on every rank); a null communicator on
     * the ranks outside it. A group with a process outside this communicator is {@code ERR_GROUP}.
     */
    public final Intracomm create(Group group) throws MPIException {
        state();
        int[] members = group.members();
        return new Intracomm(derive((c, ids) -> Communicators.create(c, ids, members)));
    }

    /** The inclusive prefix reduction in rank order. */
    public final void scan(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        CommCollectives.scan(state(), sendbuf, recvbuf, count, type, op, false, false);
    }

    /** In place. */
    public final void scan(@Nullable Object recvbuf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        CommCollectives.scan(state(), null, recvbuf, count, type, op, true, false);
    }

    /** The exclusive prefix reduction in rank order; rank 0's {@code recvbuf} is left as it was. */
    public final void exScan(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        CommCollectives.scan(state(), sendbuf, recvbuf, count, type, op, false, true);
    }

    /** In place. */
    public final void exScan(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        CommCollectives.scan(state(), null, buf, count, type, op, true, true);
    }

    // ---- topology constructors (mpi-java-api.md section 2.11; the grid is internal.CartTopology) ----------

    /**
     * A communicator of the first {@code dims[0] * ... * dims[n-1]} ranks of this one with that Cartesian grid,
     * keeping their ranks ({@code reorder} is ignored, which MPI 4.1 section 8.5.1 allows); a null communicator on
     * the ranks outside the grid. Collective. {@code ERR_DIMS} for an extent below 1 or a grid larger than this
     * communicator, {@code ERR_ARG} for arrays of different lengths.
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        CommState c = state();
        CartTopology grid;
        try {
            grid = CartTopology.of(dims, periods, c.size());
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
        int[] members = Arrays.copyOf(c.jobRanks(), grid.size());
        return new CartComm(derive((p, ids) -> Communicators.create(p, ids, members)), grid);
    }

    /**
     * A communicator of the first {@code index.length} ranks of this one with the graph {@code index} and
     * {@code edges} (MPI 4.1 section 8.5.3), keeping their ranks ({@code reorder} is ignored); a null communicator
     * on the other ranks. Collective. {@code ERR_ARG} for a malformed index or a graph larger than this
     * communicator, {@code ERR_TOPOLOGY} for an edge to a node outside the graph.
     */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        CommState c = state();
        GraphTopology graph;
        try {
            graph = GraphTopology.graph(index, edges, c.size());
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
        int[] members = Arrays.copyOf(c.jobRanks(), graph.nodes());
        return new GraphComm(derive((p, ids) -> Communicators.create(p, ids, members)), graph);
    }

    /**
     * A communicator of this one's group with the distributed graph whose edges each process names: for each of
     * its {@code sources[i]}, {@code degrees[i]} edges to the next entries of {@code destinations}, weighted by the
     * same entries of {@code weights} (MPI 4.1 section 8.5.4). Collective: every member gathers every edge.
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights,
            Info info, boolean reorder) throws MPIException {
        return distGraph(sources, degrees, destinations, weights);
    }

    /** {@link #createDistGraph(int[], int[], int[], int[], Info, boolean)} of an unweighted graph. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
            boolean reorder) throws MPIException {
        return distGraph(sources, degrees, destinations, null);
    }

    /**
     * A communicator of this one's group with a distributed graph in which each process names its own in-neighbours
     * ({@code sources}) and out-neighbours ({@code destinations}), with their weights; collective (a new context),
     * {@code ERR_RANK} for a neighbour outside this communicator.
     */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
            int[] destWeights, Info info, boolean reorder) throws MPIException {
        return adjacent(sources, sourceWeights, destinations, destWeights);
    }

    /** {@link #createDistGraphAdjacent(int[], int[], int[], int[], Info, boolean)} of an unweighted graph. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return adjacent(sources, null, destinations, null);
    }

    private GraphComm distGraph(int[] sources, int[] degrees, int[] destinations, int @Nullable [] weights)
            throws MPIException {
        CommState c = state();
        GraphTopology graph;
        try {
            graph = DistGraphs.gather(c, sources, degrees, destinations, weights);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
        return new GraphComm(derive(Communicators::dup), graph);
    }

    private GraphComm adjacent(int[] sources, int @Nullable [] sourceWeights, int[] destinations,
            int @Nullable [] destWeights) throws MPIException {
        CommState c = state();
        GraphTopology graph;
        try {
            graph = GraphTopology.distributed(sources, sourceWeights, destinations, destWeights, c.size());
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
        return new GraphComm(derive(Communicators::dup), graph);
    }

    // ---- communicator extras (mpi-java-api.md section 2.6; tier 2 item 6) -----------------------------------

    @Override
    public Intracomm iDup() throws MPIException {
        return iDupAs(Intracomm::new);
    }

    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return new Intracomm(dupState(Communicators::dup, info));
    }

    /**
     * The communicator of the ranks of this one on the same node ({@code Comm.TYPE_SHARED}; what a node is:
     * {@code org.portals3j.mpi.internal.NodeIdentity}), ranked by {@code key} and then by rank in this one; a null
     * communicator for {@code MPI.UNDEFINED}; another type is {@code ERR_ARG}. {@code info} is not used (hints).
     */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        return new Intracomm(derive((c, ids) -> Communicators.splitType(c, ids, splitType, key)));
    }

    /**
     * The communicator of {@code group} (a subgroup of this one's), collective over the group's members only;
     * {@code tag} tells apart groups made at the same time by other threads. A rank outside the group gets a null
     * communicator at once.
     */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        state();
        int[] members = group.members();
        return new Intracomm(derive((c, ids) -> Communicators.createGroup(c, ids, members, tag)));
    }

    // ---- nonblocking scans (mpi-java-api.md section 2.9; the engine is described in Comm) ---------

    public final Request iScan(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> CommNonblockingCollectives.scan(s, sendbuf, recvbuf, count, type, op, false,
                false), sendbuf, recvbuf);
    }

    /** In place. */
    public final Request iScan(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        return startCollective((s, c) -> CommNonblockingCollectives.scan(s, null, buf, count, type, op, true, false),
                buf);
    }

    public final Request iExScan(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> CommNonblockingCollectives.scan(s, sendbuf, recvbuf, count, type, op, false,
                true), sendbuf, recvbuf);
    }

    /** In place. */
    public final Request iExScan(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        return startCollective((s, c) -> CommNonblockingCollectives.scan(s, null, buf, count, type, op, true, true),
                buf);
    }

    // ---- dynamic processes and name service (mpi-java-api.md section 2.12; out of scope) ----------

    public static String openPort() throws MPIException {
        throw MPI.unsupported("MPI_Open_port", OutOfScope.DYNAMIC);
    }

    public static String openPort(Info info) throws MPIException {
        throw MPI.unsupported("MPI_Open_port", OutOfScope.DYNAMIC);
    }

    public static void closePort(String name) throws MPIException {
        throw MPI.unsupported("MPI_Close_port", OutOfScope.DYNAMIC);
    }

    public final Intercomm accept(String port, int root) throws MPIException {
        throw unsupported("MPI_Comm_accept", OutOfScope.DYNAMIC);
    }

    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        throw unsupported("MPI_Comm_accept", OutOfScope.DYNAMIC);
    }

    public final Intercomm connect(String port, int root) throws MPIException {
        throw unsupported("MPI_Comm_connect", OutOfScope.DYNAMIC);
    }

    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        throw unsupported("MPI_Comm_connect", OutOfScope.DYNAMIC);
    }

    public static void publishName(String service, String port) throws MPIException {
        throw MPI.unsupported("MPI_Publish_name", OutOfScope.DYNAMIC);
    }

    public static void publishName(String service, Info info, String port) throws MPIException {
        throw MPI.unsupported("MPI_Publish_name", OutOfScope.DYNAMIC);
    }

    public static void unpublishName(String service, String port) throws MPIException {
        throw MPI.unsupported("MPI_Unpublish_name", OutOfScope.DYNAMIC);
    }

    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw MPI.unsupported("MPI_Unpublish_name", OutOfScope.DYNAMIC);
    }

    public static String lookupName(String service) throws MPIException {
        throw MPI.unsupported("MPI_Lookup_name", OutOfScope.DYNAMIC);
    }

    public static String lookupName(String service, Info info) throws MPIException {
        throw MPI.unsupported("MPI_Lookup_name", OutOfScope.DYNAMIC);
    }

    public final Intercomm spawn(String command, String @Nullable [] argv, int maxprocs, Info info, int root,
            int @Nullable [] errcodes) throws MPIException {
        throw unsupported("MPI_Comm_spawn", OutOfScope.DYNAMIC);
    }

    public final Intercomm spawnMultiple(String[] commands, String @Nullable [] @Nullable [] argv, int[] maxprocs,
            Info[] info, int root, int @Nullable [] errcodes) throws MPIException {
        throw unsupported("MPI_Comm_spawn_multiple", OutOfScope.DYNAMIC);
    }
}
