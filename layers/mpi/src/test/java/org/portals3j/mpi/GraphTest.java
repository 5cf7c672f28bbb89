package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.CartComm;
import mpi.DistGraphNeighbors;
import mpi.Datatype;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Graph topologies and the blocking neighbourhood collectives over inmem (and one run over udp): createGraph,
 * createDistGraph, createDistGraphAdjacent with their queries, neighborAllGather(v) and neighborAllToAll(v) on
 * Cartesian grids (PROC_NULL borders, a periodic dimension of extent 2 and 1) and graphs, and the wrong uses.
 */
class GraphTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void aRingGraphAndItsNeighbourhoodCollectives(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            // a ring: node i's neighbours are i-1 and i+1
            int[] index = new int[size];
            int[] edges = new int[2 * size];
            for (int i = 0; i < size; i++) {
                index[i] = 2 * (i + 1);
                edges[2 * i] = (i - 1 + size) % size;
                edges[2 * i + 1] = (i + 1) % size;
            }
            GraphComm ring = MPI.COMM_WORLD.createGraph(index, edges, false);
            assertThat(ring.getTopology()).isEqualTo(MPI.GRAPH);
            GraphParms parms = ring.getDims();
            assertThat(parms.getIndexCount()).isEqualTo(size);
            assertThat(parms.getEdgeCount()).isEqualTo(2 * size);
            assertThat(parms.getIndex(size - 1)).isEqualTo(2 * size);
            assertThat(parms.getEdge(1)).isEqualTo(1 % size);
            int left = (rank - 1 + size) % size;
            int right = (rank + 1) % size;
            assertThat(ring.getNeighbors(rank)).containsExactly(left, right);
            DistGraphNeighbors nb = ring.getDistGraphNeighbors();
            assertThat(nb.getInDegree()).isEqualTo(2);
            assertThat(nb.isWeighted()).isFalse();
            int[] got = new int[2];
            ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertThat(got).containsExactly(left, right);
            // block 0 to the left neighbour, block 1 to the right; with 1 or 2 ranks both edges join the same pair
            // and match in order
            int[] out = {10 * rank, 10 * rank + 1};
            int[] in = new int[2];
            ring.neighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            if (size > 2) {
                assertThat(in).containsExactly(10 * left + 1, 10 * right);
            } else {
                assertThat(in).containsExactly(10 * left, 10 * right + 1);
            }
            int[] spread = {-1, -1, -1, -1, -1};
            ring.neighborAllGatherv(new int[] {rank, rank}, 2, MPI.INT, spread, new int[] {2, 2}, new int[] {3, 0},
                    MPI.INT);
            assertThat(spread).containsExactly(right, right, -1, left, left);
            GraphComm copy = ring.dup();
            assertThat(copy.getNeighbors(rank)).containsExactly(left, right);
            assertThat(ring.map(index, edges)).isEqualTo(rank);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void cartesianNeighbourhoodsFollowTheDirections(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            // periodic dimension of extent `size`: the -1 and +1 neighbours may be one process (size 1 or 2)
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
            int left = (rank - 1 + size) % size;
            int right = (rank + 1) % size;
            int[] in = new int[2];
            ring.neighborAllToAll(new int[] {100 + rank, 200 + rank}, 1, MPI.INT, in, 1, MPI.INT);
            // block 0 went to the -1 neighbour: my -1 neighbour's block 1 arrives as my block 0
            assertThat(in).containsExactly(200 + left, 100 + right);
            // a line: PROC_NULL at the ends leaves those blocks as they were
            CartComm line = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {false}, false);
            int[] got = {-1, -1};
            line.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertThat(got).containsExactly(rank == 0 ? -1 : rank - 1, rank == size - 1 ? -1 : rank + 1);
            long[] v = new long[4];
            line.neighborAllToAllv(new long[] {1, 2, 3}, new int[] {1, 2}, new int[] {0, 1}, MPI.LONG, v,
                    new int[] {2, 1}, new int[] {0, 3}, MPI.LONG);
            assertThat(v).containsExactly(rank == 0 ? 0 : 2, rank == 0 ? 0 : 3, 0, rank == size - 1 ? 0 : 1);
            MPI.Finalize();
        });
    }

    @Test
    void aTwoByThreeTorusExchangesWithFourNeighbours() throws Exception {
        MpiJob.run(6, rank -> {
            MPI.Init(new String[0]);
            CartComm torus = MPI.COMM_WORLD.createCart(new int[] {2, 3}, new boolean[] {true, true}, false);
            int[] got = new int[4];
            torus.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            int row = rank / 3;
            int col = rank % 3;
            int other = (1 - row) * 3 + col;
            assertThat(got).containsExactly(other, other, row * 3 + (col + 2) % 3, row * 3 + (col + 1) % 3);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 8})
    void distributedGraphsGatherTheirEdges(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            // rank 0 names every edge i -> i+1 (mod size) with weight i; the others name none
            int[] sources = rank == 0 ? new int[size] : new int[0];
            int[] degrees = rank == 0 ? new int[size] : new int[0];
            int[] destinations = rank == 0 ? new int[size] : new int[0];
            int[] weights = rank == 0 ? new int[size] : new int[0];
            for (int i = 0; rank == 0 && i < size; i++) {
                sources[i] = i;
                degrees[i] = 1;
                destinations[i] = (i + 1) % size;
                weights[i] = i;
            }
            GraphComm g = world.createDistGraph(sources, degrees, destinations, weights, MPI.INFO_NULL, false);
            assertThat(g.getTopology()).isEqualTo(MPI.DIST_GRAPH);
            DistGraphNeighbors nb = g.getDistGraphNeighbors();
            int prev = (rank - 1 + size) % size;
            int next = (rank + 1) % size;
            assertThat(nb.isWeighted()).isTrue();
            assertThat(nb.getInDegree()).isEqualTo(1);
            assertThat(nb.getOutDegree()).isEqualTo(1);
            assertThat(nb.getSource(0)).isEqualTo(prev);
            assertThat(nb.getSourceWeight(0)).isEqualTo(prev);
            assertThat(nb.getDestination(0)).isEqualTo(next);
            assertThat(nb.getDestinationWeight(0)).isEqualTo(rank);
            int[] got = new int[1];
            g.neighborAllGather(new int[] {rank * 7}, 1, MPI.INT, got, 1, MPI.INT);
            assertThat(got[0]).isEqualTo(prev * 7);
            // the same graph, each process naming its own neighbours, unweighted
            GraphComm adj = world.createDistGraphAdjacent(new int[] {prev}, new int[] {next}, MPI.INFO_NULL, true);
            assertThat(adj.getDistGraphNeighbors().isWeighted()).isFalse();
            int[] in = new int[1];
            adj.neighborAllToAll(new int[] {rank}, 1, MPI.INT, in, 1, MPI.INT);
            assertThat(in[0]).isEqualTo(prev);
            GraphComm unweighted = world.createDistGraph(new int[] {rank}, new int[] {1}, new int[] {next},
                    MPI.INFO_NULL, false);
            assertThat(unweighted.getDistGraphNeighbors().getSource(0)).isEqualTo(prev);
            GraphComm weighted = world.createDistGraphAdjacent(new int[] {prev}, new int[] {5}, new int[] {next},
                    new int[] {6}, MPI.INFO_NULL, false);
            assertThat(weighted.getDistGraphNeighbors().getDestinationWeight(0)).isEqualTo(6);
            MPI.Finalize();
        });
    }

    @Test
    void wrongUsesFailWithTheReferenceErrorClasses() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int[] buf = new int[4];
            assertThat(MpiErrors.errorClassOf(() -> world.neighborAllGather(buf, 1, MPI.INT, buf, 1, MPI.INT)))
                    .isEqualTo(MPI.ERR_TOPOLOGY);
            assertThat(MpiErrors.errorClassOf(() -> world.createGraph(new int[] {1, 2, 3, 4}, new int[4], false)))
                    .isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> world.createGraph(new int[] {2, 1}, new int[2], false)))
                    .isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> world.createGraph(new int[] {1}, new int[] {3}, false)))
                    .isEqualTo(MPI.ERR_TOPOLOGY);
            assertThat(MpiErrors.errorClassOf(() -> world.createDistGraphAdjacent(new int[] {3}, new int[0],
                    MPI.INFO_NULL, false))).isEqualTo(MPI.ERR_RANK);
            assertThat(MpiErrors.errorClassOf(() -> world.createDistGraph(new int[] {0}, new int[] {1},
                    new int[] {rank == 2 ? 9 : 0}, MPI.INFO_NULL, false))).isEqualTo(MPI.ERR_RANK);
            GraphComm adj = world.createDistGraphAdjacent(new int[0], new int[0], MPI.INFO_NULL, false);
            assertThat(MpiErrors.errorClassOf(adj::getDims)).isEqualTo(MPI.ERR_TOPOLOGY);
            assertThat(MpiErrors.errorClassOf(() -> adj.getNeighbors(0))).isEqualTo(MPI.ERR_TOPOLOGY);
            GraphComm pair = world.createGraph(new int[] {1, 2}, new int[] {1, 0}, false);
            assertThat(pair.isNull()).isEqualTo(rank == 2);
            if (rank < 2) {
                assertThat(MpiErrors.errorClassOf(() -> pair.getNeighbors(2))).isEqualTo(MPI.ERR_RANK);
                assertThat(MpiErrors.errorClassOf(() -> pair.neighborAllToAllv(buf, new int[0], new int[0],
                        MPI.INT, buf, new int[1], new int[1], MPI.INT))).isEqualTo(MPI.ERR_ARG);
                Datatype loose = Datatype.createVector(2, 1, 2, MPI.INT);
                assertThat(MpiErrors.errorClassOf(() -> pair.neighborAllGather(buf, 1, loose, buf, 1, loose)))
                        .as("an uncommitted type").isEqualTo(MPI.ERR_TYPE);
                assertThat(MpiErrors.errorClassOf(() -> pair.neighborAllGather(buf, 1, MPI.INT, new int[1], 2,
                        MPI.INT))).as("a receive buffer shorter than the count").isEqualTo(MPI.ERR_BUFFER);
                assertThat(MpiErrors.errorClassOf(() -> pair.iNeighborAllToAll(MPI.newIntBuffer(1), 1, MPI.DOUBLE,
                        MPI.newIntBuffer(1), 1, MPI.INT))).as("a buffer not of the type").isEqualTo(MPI.ERR_TYPE);
                int[] got = new int[1];
                pair.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT); // nothing was lost
                assertThat(got[0]).isEqualTo(1 - rank);
                pair.free();
                assertThat(MpiErrors.errorClassOf(() -> pair.neighborAllGather(buf, 1, MPI.INT, buf, 1, MPI.INT)))
                        .as("a freed graph communicator").isEqualTo(MPI.ERR_COMM);
                assertThat(MpiErrors.errorClassOf(() -> pair.iNeighborAllGather(MPI.newIntBuffer(1), 1, MPI.INT,
                        MPI.newIntBuffer(1), 1, MPI.INT))).isEqualTo(MPI.ERR_COMM);
            }
            MPI.Finalize();
        });
    }

    @Test
    void neighbourhoodCollectivesOverUdp() throws Exception {
        MpiJob.run("udp", 3, rank -> {
            MPI.Init(new String[0]);
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {3}, new boolean[] {true}, false);
            double[] big = new double[30_000]; // above the eager limit: by rendezvous
            big[0] = rank;
            double[] got = new double[2 * big.length];
            ring.neighborAllGather(big, big.length, MPI.DOUBLE, got, big.length, MPI.DOUBLE);
            assertThat(got[0]).isEqualTo((rank + 2) % 3);
            assertThat(got[big.length]).isEqualTo((rank + 1) % 3);
            MPI.Finalize();
        });
    }
}
