package org.portals3j.mpi.internal;

import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A graph topology (MPI 4.1 sections 8.5.3 and 8.5.4): either the whole graph every process knows
 * ({@code createGraph}: {@code index} and {@code edges}), or one process's own edges of a distributed graph
 * ({@code createDistGraph*}: sources and destinations with their weights). Immutable; its queries are local.
 */
public final class GraphTopology {
    private final boolean distributed;
    private final int[] index;
    private final int[] edges;
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destinationWeights;
    private final boolean weighted;

    private GraphTopology(boolean distributed, int[] index, int[] edges, int[] sources, int[] sourceWeights,
            int[] destinations, int[] destinationWeights, boolean weighted) {
        this.distributed = distributed;
        this.index = index;
        this.edges = edges;
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destinationWeights = destinationWeights;
        this.weighted = weighted;
    }

    /**
     * {@code createGraph}'s graph of {@code index.length} nodes: ERR_ARG for a decreasing or negative index, too
     * few edges, or more nodes than {@code available} processes; ERR_TOPOLOGY for an edge to a node outside it.
     */
    public static GraphTopology graph(int @Nullable [] index, int @Nullable [] edges, int available) {
        if (index == null || edges == null) {
            throw new MpiError(ErrorClass.ARG, "index and edges must be arrays");
        }
        if (index.length > available) {
            throw new MpiError(ErrorClass.ARG, "a graph of " + index.length + " nodes needs more than the "
                    + available + " processes of the communicator");
        }
        int previous = 0;
        for (int i : index) {
            if (i < previous) {
                throw new MpiError(ErrorClass.ARG, "invalid index " + Arrays.toString(index) + ": it must be the"
                        + " running count of edges, never decreasing");
            }
            previous = i;
        }
        if (edges.length < previous) {
            throw new MpiError(ErrorClass.ARG, "the index counts " + previous + " edges but edges has "
                    + edges.length);
        }
        int[] used = Arrays.copyOf(edges, previous);
        for (int e : used) {
            if (e < 0 || e >= index.length) {
                throw new MpiError(ErrorClass.TOPOLOGY, "an edge names node " + e + ": the graph has nodes 0.."
                        + (index.length - 1));
            }
        }
        return new GraphTopology(false, index.clone(), used, new int[0], new int[0], new int[0], new int[0], false);
    }

    /**
     * One process's part of a distributed graph: ERR_ARG for a null array or arrays of different lengths,
     * ERR_RANK for a neighbour outside {@code 0..size-1}.
     */
    public static GraphTopology distributed(int @Nullable [] sources, int @Nullable [] sourceWeights,
            int @Nullable [] destinations, int @Nullable [] destinationWeights, int size) {
        if (sources == null || destinations == null) {
            throw new MpiError(ErrorClass.ARG, "sources and destinations must be arrays");
        }
        boolean weighted = sourceWeights != null || destinationWeights != null;
        int[] sw = weights(sourceWeights, sources.length, weighted);
        int[] dw = weights(destinationWeights, destinations.length, weighted);
        for (int[] ranks : new int[][] {sources, destinations}) {
            for (int r : ranks) {
                if (r < 0 || r >= size) {
                    throw new MpiError(ErrorClass.RANK, "invalid neighbour " + r + ": the communicator has ranks"
                            + " 0.." + (size - 1));
                }
            }
        }
        return new GraphTopology(true, new int[0], new int[0], sources.clone(), sw, destinations.clone(), dw,
                weighted);
    }

    private static int[] weights(int @Nullable [] given, int length, boolean weighted) {
        if (!weighted) {
            return new int[length];
        }
        if (given == null || given.length < length) {
            throw new MpiError(ErrorClass.ARG, "a weighted graph needs a weight for each source and each"
                    + " destination");
        }
        return Arrays.copyOf(given, length);
    }

    /** The number of nodes of a {@code createGraph} graph. */
    public int nodes() {
        return index.length;
    }

    public boolean isDistributed() {
        return distributed;
    }

    public int[] index() {
        return index.clone();
    }

    public int[] edges() {
        return edges.clone();
    }

    /** The neighbours of node {@code rank} of a {@code createGraph} graph; ERR_TOPOLOGY on a distributed one. */
    public int[] neighbours(int rank) {
        if (distributed) {
            throw new MpiError(ErrorClass.TOPOLOGY, "a distributed graph has no global neighbour lists: use"
                    + " getDistGraphNeighbors");
        }
        if (rank < 0 || rank >= index.length) {
            throw new MpiError(ErrorClass.RANK, "invalid rank " + rank + ": the graph has nodes 0.."
                    + (index.length - 1));
        }
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    /** This process's in- and out-neighbours: of a distributed graph its own, of another its neighbours both. */
    public Neighbours neighbourhood(int rank) {
        int[] in = distributed ? sources.clone() : neighbours(rank);
        int[] out = distributed ? destinations.clone() : in.clone();
        return new Neighbours(in, new int[in.length], out, new int[out.length]);
    }

    public int[] sources(int rank) {
        return distributed ? sources.clone() : neighbours(rank);
    }

    public int[] sourceWeights(int rank) {
        return distributed ? sourceWeights.clone() : new int[neighbours(rank).length];
    }

    public int[] destinations(int rank) {
        return distributed ? destinations.clone() : neighbours(rank);
    }

    public int[] destinationWeights(int rank) {
        return distributed ? destinationWeights.clone() : new int[neighbours(rank).length];
    }

    public boolean weighted() {
        return weighted;
    }
}
