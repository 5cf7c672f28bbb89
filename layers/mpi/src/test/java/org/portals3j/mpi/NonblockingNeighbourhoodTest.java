package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.CartComm;
import mpi.GraphComm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The nonblocking neighbourhood collectives on 1 to 8 ranks over inmem: iNeighborAllGather(v) and
 * iNeighborAllToAll(v) on a periodic ring (extents 1 and 2 make both neighbours the same process), on a 2-D grid and
 * on a directed graph, several outstanding at once and completed in the opposite order, and ERR_TOPOLOGY without a
 * topology.
 */
class NonblockingNeighbourhoodTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void aRingRunsSeveralOutstanding(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
            int left = (rank - 1 + size) % size;
            int right = (rank + 1) % size;
            IntBuffer mine = MPI.newIntBuffer(1).put(0, rank);
            IntBuffer gathered = MPI.newIntBuffer(2);
            // gatherv: the -1 neighbour's block at element 3, the +1 neighbour's at element 0
            IntBuffer spread = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++) {
                spread.put(i, -1);
            }
            IntBuffer out = MPI.newIntBuffer(2).put(0, 10 * rank).put(1, 10 * rank + 1);
            IntBuffer in = MPI.newIntBuffer(2);
            IntBuffer outV = MPI.newIntBuffer(3).put(0, 100 * rank).put(1, 100 * rank + 1).put(2, 100 * rank + 2);
            IntBuffer inV = MPI.newIntBuffer(3);
            Request[] rs = {
                ring.iNeighborAllGather(mine, 1, MPI.INT, gathered, 1, MPI.INT),
                ring.iNeighborAllGatherv(mine, 1, MPI.INT, spread, new int[] {1, 1}, new int[] {3, 0}, MPI.INT),
                ring.iNeighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT),
                // block 0 (one int) to the -1 neighbour, block 1 (two ints) to the +1 neighbour
                ring.iNeighborAllToAllv(outV, new int[] {1, 2}, new int[] {0, 1}, MPI.INT, inV, new int[] {2, 1},
                        new int[] {0, 2}, MPI.INT)};
            for (int i = rs.length - 1; i >= 0; i--) {
                rs[i].waitFor();
            }
            assertThat(new int[] {gathered.get(0), gathered.get(1)}).containsExactly(left, right);
            assertThat(new int[] {spread.get(0), spread.get(1), spread.get(2), spread.get(3)})
                    .containsExactly(right, -1, -1, left);
            // the -1 neighbour sent me its block 1 (to its +1), the +1 neighbour its block 0
            assertThat(new int[] {in.get(0), in.get(1)}).containsExactly(10 * left + 1, 10 * right);
            assertThat(new int[] {inV.get(0), inV.get(1), inV.get(2)})
                    .containsExactly(100 * left + 1, 100 * left + 2, 100 * right);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 8})
    void aGridWithBordersOverlapsAnAllReduce(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            // 2 x size/2, periodic in dimension 1 only: the rows' ends have PROC_NULL neighbours
            CartComm grid = MPI.COMM_WORLD.createCart(new int[] {2, size / 2}, new boolean[] {false, true}, false);
            IntBuffer sum = MPI.newIntBuffer(1).put(0, 1);
            Request all = grid.iAllReduce(sum, 1, MPI.INT, MPI.SUM);
            IntBuffer mine = MPI.newIntBuffer(1).put(0, rank);
            IntBuffer got = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++) {
                got.put(i, -1);
            }
            Request n = grid.iNeighborAllGather(mine, 1, MPI.INT, got, 1, MPI.INT);
            Request.waitAll(new Request[] {n, all});
            assertThat(sum.get(0)).isEqualTo(size);
            int up = grid.shift(0, 1).getRankSource();
            int down = grid.shift(0, 1).getRankDest();
            int left = grid.shift(1, 1).getRankSource();
            int right = grid.shift(1, 1).getRankDest();
            assertThat(new int[] {got.get(0), got.get(1), got.get(2), got.get(3)})
                    .containsExactly(up == MPI.PROC_NULL ? -1 : up, down == MPI.PROC_NULL ? -1 : down, left, right);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 8})
    void aDirectedGraphRunsBothKindsOutstanding(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            // rank r hears from r-1 and r-2 and sends to r+1 and r+2
            int p1 = (rank - 1 + size) % size;
            int p2 = (rank - 2 + size) % size;
            GraphComm g = MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {p1, p2},
                    new int[] {(rank + 1) % size, (rank + 2) % size}, MPI.INFO_NULL, false);
            IntBuffer mine = MPI.newIntBuffer(1).put(0, rank);
            IntBuffer gathered = MPI.newIntBuffer(2);
            IntBuffer out = MPI.newIntBuffer(2).put(0, 10 * rank + 1).put(1, 10 * rank + 2);
            IntBuffer in = MPI.newIntBuffer(2);
            Request a = g.iNeighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            Request b = g.iNeighborAllGather(mine, 1, MPI.INT, gathered, 1, MPI.INT);
            b.waitFor();
            a.waitFor();
            assertThat(new int[] {gathered.get(0), gathered.get(1)}).containsExactly(p1, p2);
            assertThat(new int[] {in.get(0), in.get(1)}).containsExactly(10 * p1 + 1, 10 * p2 + 2);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2})
    void withoutATopologyItIsErrTopologyAndTheCommunicatorGoesOn(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            IntBuffer b = MPI.newIntBuffer(2);
            assertThat(MpiErrors.errorClassOf(() -> MPI.COMM_WORLD.iNeighborAllGather(b, 1, MPI.INT, b, 1,
                    MPI.INT))).isEqualTo(MPI.ERR_TOPOLOGY);
            IntBuffer sum = MPI.newIntBuffer(1).put(0, 1);
            MPI.COMM_WORLD.iAllReduce(sum, 1, MPI.INT, MPI.SUM).waitFor();
            assertThat(sum.get(0)).isEqualTo(size);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1})
    void aGridOfNineDimensionsIsUnsupportedNonblockingButWorksBlocking(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            int[] dims = {1, 1, 1, 1, 1, 1, 1, 1, 1};
            CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[9], false);
            grid.setErrhandler(MPI.ERRORS_RETURN);
            IntBuffer mine = MPI.newIntBuffer(1).put(0, 7);
            IntBuffer got = MPI.newIntBuffer(18);
            assertThat(MpiErrors.errorClassOf(() -> grid.iNeighborAllGather(mine, 1, MPI.INT, got, 1, MPI.INT)))
                    .isEqualTo(MPI.ERR_UNSUPPORTED_OPERATION);
            // 8 dimensions fit: every neighbour is PROC_NULL on one process, so nothing is written
            CartComm eight = MPI.COMM_WORLD.createCart(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, new boolean[8], false);
            IntBuffer none = MPI.newIntBuffer(16).put(0, -1);
            eight.iNeighborAllGather(mine, 1, MPI.INT, none, 1, MPI.INT).waitFor();
            assertThat(none.get(0)).isEqualTo(-1);
            int[] blocking = new int[18];
            grid.neighborAllGather(new int[] {7}, 1, MPI.INT, blocking, 1, MPI.INT);
            MPI.Finalize();
        });
    }
}
