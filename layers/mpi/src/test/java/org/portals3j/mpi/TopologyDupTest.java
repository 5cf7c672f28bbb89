package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.CartComm;
import mpi.Comm;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The covariant iDup and dupWithInfo of CartComm, GraphComm and Intercomm (mpi-java-api.md section 2.13) on 2 to 8
 * ranks over inmem: the result has the type, the topology (or the remote group) and the hints it should, and works.
 */
class TopologyDupTest {

    private static Info hint(String value) throws Exception {
        Info info = new Info();
        info.set("app_hint", value);
        return info;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void aCartesianGridSurvivesIDupAndDupWithInfo(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
            CartComm idup = ring.iDup();
            MpiJob.present(idup.getRequest()).waitFor();
            CartComm withInfo = ring.dupWithInfo(hint("cart"));
            for (CartComm c : new CartComm[] {idup, withInfo}) {
                assertThat(c.getTopology()).isEqualTo(MPI.CART);
                assertThat(Comm.compare(c, ring)).isEqualTo(MPI.CONGRUENT);
                assertThat(c.getTopo().getDim(0)).isEqualTo(size);
                assertThat(c.getTopo().getPeriod(0)).isTrue();
                assertThat(c.shift(0, 1).getRankDest()).isEqualTo((rank + 1) % size);
                int[] got = new int[2];
                c.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
                assertThat(got).containsExactly((rank - 1 + size) % size, (rank + 1) % size);
            }
            assertThat(MpiJob.present(withInfo.getInfo().get("app_hint"))).isEqualTo("cart");
            assertThat(idup.getInfo().get("app_hint") == null).isTrue();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void aGraphSurvivesIDupAndDupWithInfo(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            // each rank sends to the next one only: a directed ring as a distributed graph
            GraphComm graph = MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {(rank - 1 + size) % size},
                    new int[] {(rank + 1) % size}, MPI.INFO_NULL, false);
            GraphComm idup = graph.iDup();
            MpiJob.present(idup.getRequest()).waitFor();
            GraphComm withInfo = graph.dupWithInfo(hint("graph"));
            for (GraphComm c : new GraphComm[] {idup, withInfo}) {
                assertThat(c.getTopology()).isEqualTo(MPI.DIST_GRAPH);
                DistGraphNeighbors n = c.getDistGraphNeighbors();
                assertThat(n.getInDegree()).isEqualTo(1);
                assertThat(n.getSource(0)).isEqualTo((rank - 1 + size) % size);
                assertThat(n.getDestination(0)).isEqualTo((rank + 1) % size);
                int[] got = {-1};
                c.neighborAllToAll(new int[] {rank * 10}, 1, MPI.INT, got, 1, MPI.INT);
                assertThat(got[0]).isEqualTo((rank - 1 + size) % size * 10);
            }
            assertThat(MpiJob.present(withInfo.getInfo().get("app_hint"))).isEqualTo("graph");
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void anIntercommunicatorSurvivesDupWithInfo(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Intracomm local = world.split(rank % 2, rank);
            Intercomm inter = world.createIntercomm(local, 0, rank % 2 == 0 ? 1 : 0, 77);
            Intercomm copy = inter.dupWithInfo(hint("inter"));
            assertThat(copy.isInter()).isTrue();
            assertThat(copy.getRemoteSize()).isEqualTo(inter.getRemoteSize());
            assertThat(MpiJob.present(copy.getInfo().get("app_hint"))).isEqualTo("inter");
            assertThat(Comm.compare(copy, inter)).isEqualTo(MPI.CONGRUENT);
            // the remote group's rank 0 hears from this group's rank 0
            int[] got = {-1};
            if (copy.getRank() == 0) {
                copy.sendRecv(new int[] {rank}, 1, MPI.INT, 0, 5, got, 1, MPI.INT, 0, 5);
                assertThat(got[0]).isEqualTo(rank == 0 ? 1 : 0);
            }
            MPI.Finalize();
        });
    }
}
