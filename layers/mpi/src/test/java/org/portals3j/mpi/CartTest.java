package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.CartComm;
import mpi.CartParms;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.ShiftParms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cartesian topologies over inmem: createCart on 1 to 4 and 8 ranks and on a 3x2 grid of 6, ranks outside the grid,
 * coordinates, shifts at the borders (periodic and not), sub-grids, map, createDims, dup, and the wrong uses.
 */
class CartTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void aRingOfAllRanksShiftsBothWays(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
            assertThat(ring.isNull()).isFalse();
            assertThat(ring.getTopology()).isEqualTo(MPI.CART);
            assertThat(MPI.COMM_WORLD.getTopology()).isEqualTo(MPI.UNDEFINED);
            assertThat(ring.getRank()).isEqualTo(rank);
            assertThat(Comm.compare(ring, MPI.COMM_WORLD)).isEqualTo(MPI.CONGRUENT);
            ShiftParms up = ring.shift(0, 1);
            assertThat(up.getRankSource()).isEqualTo((rank - 1 + size) % size);
            assertThat(up.getRankDest()).isEqualTo((rank + 1) % size);
            ShiftParms far = ring.shift(0, -2 * size - 1);
            assertThat(far.getRankSource()).isEqualTo((rank + 1) % size);
            assertThat(far.getRankDest()).isEqualTo((rank - 1 + size) % size);
            int[] got = new int[1];
            ring.sendRecv(new int[] {rank}, 1, MPI.INT, up.getRankDest(), 3, got, 1, MPI.INT, up.getRankSource(), 3);
            assertThat(got[0]).isEqualTo(up.getRankSource());
            ring.free();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void aLineStopsAtItsEnds(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            CartComm line = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {false}, true);
            ShiftParms right = line.shift(0, 1);
            assertThat(right.getRankSource()).isEqualTo(rank == 0 ? MPI.PROC_NULL : rank - 1);
            assertThat(right.getRankDest()).isEqualTo(rank == size - 1 ? MPI.PROC_NULL : rank + 1);
            assertThat(line.shift(0, size).getRankDest()).isEqualTo(MPI.PROC_NULL);
            assertThat(line.shift(0, 0).getRankDest()).isEqualTo(rank);
            // the exchange of a stencil: PROC_NULL partners make the border ranks' halves no-ops
            int[] halo = {-7};
            line.sendRecv(new int[] {rank}, 1, MPI.INT, right.getRankDest(), 0, halo, 1, MPI.INT,
                    right.getRankSource(), 0);
            assertThat(halo[0]).isEqualTo(rank == 0 ? -7 : rank - 1);
            line.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> line.getRank(new int[] {size}))).isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> line.getRank(new int[] {-1}))).isEqualTo(MPI.ERR_ARG);
            MPI.Finalize();
        });
    }

    @Test
    void aThreeByTwoGridOfSixRanks() throws Exception {
        MpiJob.run(6, rank -> {
            MPI.Init(new String[0]);
            int[] dims = new int[2];
            CartComm.createDims(6, dims);
            assertThat(dims).containsExactly(3, 2);
            CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, false}, false);
            CartParms topo = grid.getTopo();
            assertThat(topo.getDimCount()).isEqualTo(2);
            assertThat(new int[] {topo.getDim(0), topo.getDim(1)}).containsExactly(3, 2);
            assertThat(topo.getPeriod(0)).isTrue();
            assertThat(topo.getPeriod(1)).isFalse();
            int row = rank / 2;
            int col = rank % 2;
            assertThat(new int[] {topo.getCoord(0), topo.getCoord(1)}).containsExactly(row, col);
            assertThat(grid.getCoords(5)).containsExactly(2, 1);
            assertThat(grid.getRank(new int[] {1, 1})).isEqualTo(3);
            assertThat(grid.getRank(new int[] {-1, 0})).isEqualTo(4); // periodic dimension 0 wraps
            assertThat(grid.getRank(new int[] {4, 1})).isEqualTo(3);
            ShiftParms down = grid.shift(0, 1);
            assertThat(down.getRankSource()).isEqualTo(((row + 2) % 3) * 2 + col);
            assertThat(down.getRankDest()).isEqualTo(((row + 1) % 3) * 2 + col);
            ShiftParms across = grid.shift(1, 1);
            assertThat(across.getRankSource()).isEqualTo(col == 0 ? MPI.PROC_NULL : rank - 1);
            assertThat(across.getRankDest()).isEqualTo(col == 1 ? MPI.PROC_NULL : rank + 1);
            // rows keep dimension 1, columns dimension 0
            CartComm rowComm = grid.sub(new boolean[] {false, true});
            assertThat(rowComm.getSize()).isEqualTo(2);
            assertThat(rowComm.getRank()).isEqualTo(col);
            assertThat(rowComm.getTopo().getDimCount()).isEqualTo(1);
            assertThat(rowComm.getTopo().getPeriod(0)).isFalse();
            CartComm colComm = grid.sub(new boolean[] {true, false});
            assertThat(colComm.getSize()).isEqualTo(3);
            assertThat(colComm.getRank()).isEqualTo(row);
            assertThat(colComm.getTopo().getPeriod(0)).isTrue();
            int[] sum = {rank};
            colComm.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(3 * col + 6); // ranks col, col+2, col+4
            int[] rowSum = {rank};
            rowComm.allReduce(rowSum, 1, MPI.INT, MPI.SUM);
            assertThat(rowSum[0]).isEqualTo(4 * row + 1);
            CartComm point = grid.sub(new boolean[] {false, false});
            assertThat(point.getSize()).isEqualTo(1);
            assertThat(point.getTopo().getDimCount()).isZero();
            CartComm copy = grid.dup();
            assertThat(copy.getTopology()).isEqualTo(MPI.CART);
            assertThat(copy.getCoords(rank)).containsExactly(row, col);
            assertThat(Comm.compare(copy, grid)).isEqualTo(MPI.CONGRUENT);
            assertThat(grid.clone().getTopo().getDim(0)).isEqualTo(3);
            assertThat(grid.map(new int[] {2, 2}, new boolean[] {false, false})).isEqualTo(rank < 4 ? rank
                    : MPI.UNDEFINED);
            MPI.Finalize();
        });
    }

    @Test
    void ranksOutsideTheGridGetANullCommunicator() throws Exception {
        MpiJob.run(4, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            CartComm grid = world.createCart(new int[] {1, 3}, new boolean[] {false, false}, false);
            assertThat(grid.isNull()).isEqualTo(rank == 3);
            if (rank < 3) {
                assertThat(grid.getCoords(rank)).containsExactly(0, rank);
                int[] all = new int[3];
                grid.allGather(new int[] {rank * 10}, 1, MPI.INT, all, 1, MPI.INT);
                assertThat(all).containsExactly(0, 10, 20);
            } else {
                world.setErrhandler(MPI.ERRORS_RETURN);
                assertThat(MpiErrors.errorClassOf(grid::getTopo)).isEqualTo(MPI.ERR_COMM);
            }
            CartComm none = world.createCart(new int[0], new boolean[0], false);
            assertThat(none.isNull()).isEqualTo(rank != 0);
            if (rank == 0) {
                assertThat(none.getSize()).isEqualTo(1);
                assertThat(none.getTopo().getDimCount()).isZero();
            }
            MPI.Finalize();
        });
    }

    @Test
    void wrongUsesFailWithTheReferenceErrorClasses() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> world.createCart(new int[] {3}, new boolean[] {false}, false)))
                    .isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> world.createCart(new int[] {0, 2}, new boolean[2], false)))
                    .isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> world.createCart(new int[] {2}, new boolean[2], false)))
                    .isEqualTo(MPI.ERR_ARG);
            CartComm grid = world.createCart(new int[] {2, 1}, new boolean[] {false, true}, false);
            assertThat(grid.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> grid.shift(2, 1))).isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> grid.shift(-1, 1))).isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> grid.getCoords(2))).isEqualTo(MPI.ERR_RANK);
            assertThat(MpiErrors.errorClassOf(() -> grid.getRank(new int[] {0}))).isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> grid.sub(new boolean[3]))).isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> grid.map(new int[] {-1}, new boolean[1])))
                    .isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> CartComm.createDims(7, new int[] {0, 3})))
                    .isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> CartComm.createDims(0, new int[] {0})))
                    .isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> CartComm.createDims(6, new int[] {-2, 0})))
                    .isEqualTo(MPI.ERR_DIMS);
            assertThat(MpiErrors.errorClassOf(() -> CartComm.createDims(6, new int[] {2, 2})))
                    .isEqualTo(MPI.ERR_DIMS);
            // nothing was lost: the grid still works
            int[] got = new int[1];
            grid.sendRecv(new int[] {rank}, 1, MPI.INT, 1 - rank, 0, got, 1, MPI.INT, 1 - rank, 0);
            assertThat(got[0]).isEqualTo(1 - rank);
            grid.free();
            assertThat(MpiErrors.errorClassOf(() -> grid.shift(0, 1))).isEqualTo(MPI.ERR_COMM);
            MPI.Finalize();
        });
    }

    @Test
    void createDimsFactorisesAsEvenlyAsPossibleInNonIncreasingOrder() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            assertThat(dims(6, 2)).containsExactly(3, 2);
            assertThat(dims(16, 2)).containsExactly(4, 4);
            assertThat(dims(7, 2)).containsExactly(7, 1);
            assertThat(dims(12, 3)).containsExactly(3, 2, 2);
            assertThat(dims(24, 3)).containsExactly(4, 3, 2);
            assertThat(dims(27, 2)).containsExactly(9, 3);
            assertThat(dims(1, 3)).containsExactly(1, 1, 1);
            assertThat(dims(64, 3)).containsExactly(4, 4, 4);
            assertThat(dims(90, 3)).containsExactly(6, 5, 3);
            assertThat(dims(2 * 1_048_576, 4)).containsExactly(64, 32, 32, 32);
            assertThat(dims(2_147_483_647, 3)).containsExactly(2_147_483_647, 1, 1); // a prime
            int[] set = {0, 3, 0};
            CartComm.createDims(12, set);
            assertThat(set).containsExactly(2, 3, 2);
            int[] full = {2, 3};
            CartComm.createDims(6, full);
            assertThat(full).containsExactly(2, 3);
            int[] many = new int[40];
            CartComm.createDims(1009 * 1024, many); // a large prime next to many small ones: no long search
            assertThat(many[0]).isEqualTo(1009);
            assertThat(many[10]).isEqualTo(2);
            assertThat(many[11]).isEqualTo(1);
            MPI.Finalize();
        });
    }

    private static int[] dims(int nnodes, int count) throws Exception {
        int[] dims = new int[count];
        CartComm.createDims(nnodes, dims);
        return dims;
    }
}
