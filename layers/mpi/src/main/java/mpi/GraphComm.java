package mpi;

import java.util.function.Function;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BackgroundDup;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.GraphTopology;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Neighbours;

/**
 * A communicator with a graph topology (MPI 4.1 sections 8.5.3 and 8.5.4): made by {@link Intracomm#createGraph}
 * ({@code MPI.GRAPH}: every process knows the whole graph) or by {@code createDistGraph} and
 * {@code createDistGraphAdjacent} ({@code MPI.DIST_GRAPH}: each knows its own neighbours). Ranks are those of the
 * communicator it was made from ({@code reorder} is ignored). The queries are local ({@link GraphTopology}).
 */
public final class GraphComm extends Intracomm {
    private final GraphTopology graph;

    /** A graph communicator this rank made, or a null one ({@code own} null: a process outside the graph). */
    GraphComm(@Nullable CommState own, GraphTopology graph) {
        super(own);
        this.graph = graph;
    }

    /** The communicator an {@code iDup} of {@code parent} makes in the background, with the same graph. */
    GraphComm(CommState parent, BackgroundDup dup, GraphTopology graph) {
        super(parent, dup);
        this.graph = graph;
    }

    @Override
    int topologyKind() {
        return graph.isDistributed() ? MPI.DIST_GRAPH : MPI.GRAPH;
    }

    @Override
    @Nullable Neighbours neighbours(int rank) {
        return graph.neighbourhood(rank);
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public GraphComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** The same graph in a new context; collective. */
    @Override
    public GraphComm dup() throws MPIException {
        return new GraphComm(derive(Communicators::dup), graph);
    }

    // ---- covariant communicator extras (mpi-java-api.md section 2.13) -------------------------------------------

    /** {@link Intracomm#iDup()} keeping the graph: the result is usable once its request completes. */
    @Override
    public GraphComm iDup() throws MPIException {
        return iDupAs((parent, dup) -> new GraphComm(parent, dup, graph));
    }

    /** {@link #dup()}, with {@code info}'s hints on the new communicator instead of this one's. */
    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return new GraphComm(dupState(Communicators::dup, info), graph);
    }

    /** The index and edges of a {@code createGraph} graph; {@code ERR_TOPOLOGY} for a distributed graph. */
    public GraphParms getDims() throws MPIException {
        return local(c -> {
            if (graph.isDistributed()) {
                throw new MpiError(MPI.ERR_TOPOLOGY, "a distributed graph has no global index and edges: use"
                        + " getDistGraphNeighbors");
            }
            return new GraphParms(graph.index(), graph.edges());
        });
    }

    /** The neighbours of {@code rank} in a {@code createGraph} graph; {@code ERR_TOPOLOGY} for a distributed one. */
    public int[] getNeighbors(int rank) throws MPIException {
        return local(c -> graph.neighbours(rank));
    }

    /**
     * The calling process's in- and out-neighbours with their weights; of a {@code createGraph} graph, its
     * neighbours both ways, unweighted.
     */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        return local(c -> new DistGraphNeighbors(graph.sources(c.rank()), graph.sourceWeights(c.rank()),
                graph.destinations(c.rank()), graph.destinationWeights(c.rank()), graph.weighted()));
    }

    /**
     * The rank this process would have in a graph of {@code index} and {@code edges} made from this communicator:
     * its rank, or {@code MPI.UNDEFINED} if the graph has fewer nodes (no reordering, as in {@code createGraph}).
     */
    public int map(int[] index, int[] edges) throws MPIException {
        return local(c -> c.rank() < GraphTopology.graph(index, edges, c.size()).nodes() ? c.rank() : MPI.UNDEFINED);
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
