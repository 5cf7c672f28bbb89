package org.portals3j.mpi.internal;

import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code createDistGraph} (MPI 4.1 section 8.5.4): each process names any edges of the graph, so the edges are
 * first gathered by every member (an allGather of the counts, then an allGatherv of (source, destination, weight)
 * triples over the parent), and each process keeps the edges into it and out of it, in the order of the processes
 * that named them and then of their lists. Every member checks every edge, so an edge naming a rank outside the
 * communicator fails everywhere (ERR_RANK); malformed arrays (ERR_ARG) are seen by their process alone.
 */
public final class DistGraphs {
    private DistGraphs() {
    }

    /**
     * This process's part of the graph the members' {@code sources}, {@code degrees}, {@code destinations} and
     * {@code weights} (null: unweighted) describe; collective over {@code parent}.
     */
    public static GraphTopology gather(CommState parent, int @Nullable [] sources, int @Nullable [] degrees,
            int @Nullable [] destinations, int @Nullable [] weights) {
        int[] mine = triples(sources, degrees, destinations, weights);
        int n = parent.size();
        int[] counts = new int[n];
        Collectives.allGatherv(parent, new int[] {mine.length}, 1, BaseType.INT, counts, uniform(n), null,
                BaseType.INT, false);
        long total = 0;
        for (int count : counts) {
            total += count;
        }
        if (total > Integer.MAX_VALUE / 2) {
            throw new MpiError(ErrorClass.ARG, "the graph has " + total / 3 + " edges: too many to gather");
        }
        int[] all = new int[(int) total];
        Collectives.allGatherv(parent, mine, mine.length, BaseType.INT, all, counts, null, BaseType.INT, false);
        for (int e = 0; e < all.length; e++) {
            if (e % 3 != 2 && (all[e] < 0 || all[e] >= n)) {
                throw new MpiError(ErrorClass.RANK, "an edge names rank " + all[e] + ", outside the communicator"
                        + " (0.." + (n - 1) + ")");
            }
        }
        int me = parent.rank();
        int ins = 0;
        int outs = 0;
        for (int e = 0; e < all.length; e += 3) {
            ins += all[e + 1] == me ? 1 : 0;
            outs += all[e] == me ? 1 : 0;
        }
        int[] in = new int[ins];
        int[] inWeights = new int[ins];
        int[] out = new int[outs];
        int[] outWeights = new int[outs];
        for (int e = 0, i = 0, o = 0; e < all.length; e += 3) {
            if (all[e + 1] == me) {
                in[i] = all[e];
                inWeights[i++] = all[e + 2];
            }
            if (all[e] == me) {
                out[o] = all[e + 1];
                outWeights[o++] = all[e + 2];
            }
        }
        return weights == null ? GraphTopology.distributed(in, null, out, null, n)
                : GraphTopology.distributed(in, inWeights, out, outWeights, n);
    }

    /** This process's edges as (source, destination, weight) triples, checked. */
    private static int[] triples(int @Nullable [] sources, int @Nullable [] degrees,
            int @Nullable [] destinations, int @Nullable [] weights) {
        if (sources == null || degrees == null || destinations == null || degrees.length < sources.length) {
            throw new MpiError(ErrorClass.ARG, "sources, degrees and destinations must be arrays, with a degree for"
                    + " each source");
        }
        long edges = 0;
        for (int i = 0; i < sources.length; i++) {
            if (degrees[i] < 0) {
                throw new MpiError(ErrorClass.ARG, "invalid degree " + degrees[i] + ": it must be 0 or more");
            }
            edges += degrees[i];
        }
        if (edges > destinations.length || weights != null && edges > weights.length) {
            throw new MpiError(ErrorClass.ARG, "the degrees count " + edges + " edges, more than destinations (or"
                    + " weights) holds");
        }
        int[] triples = new int[(int) edges * 3];
        for (int i = 0, k = 0; i < sources.length; i++) {
            for (int j = 0; j < degrees[i]; j++, k++) {
                triples[3 * k] = sources[i];
                triples[3 * k + 1] = destinations[k];
                triples[3 * k + 2] = weights == null ? 0 : weights[k];
            }
        }
        return triples;
    }

    private static int[] uniform(int n) {
        int[] ones = new int[n];
        Arrays.fill(ones, 1);
        return ones;
    }
}
