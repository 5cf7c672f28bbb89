package mpi;

/** The result of {@link GraphComm#getDims()}: the graph's index (running edge counts) and edges. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** The number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    /** The number of edges of nodes 0 to {@code i}. */
    public int getIndex(int i) {
        return index[i];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}
