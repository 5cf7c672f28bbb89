package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Communicator extras on 1 to 8 ranks: iDup, dupWithInfo, setInfo/getInfo, splitType, createGroup. */
class CommExtrasTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void iDupOverlapsWithPointToPointAndGivesACongruentCommunicator(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(world.dup().getRequest()).isNull();
            int[] token = new int[1];
            Intracomm dup;
            if (rank == 0) {
                dup = world.iDup();
                Request r = MpiJob.present(dup.getRequest());
                if (size > 1) {
                    // rank 1 joins the iDup only after this message: it cannot be complete, nor the result usable
                    assertThat(r.test()).isFalse();
                    assertThat(MpiErrors.errorClassOf(dup::getSize)).isEqualTo(MPI.ERR_COMM);
                    world.send(new int[] {42}, 1, MPI.INT, 1, 3);
                }
                r.waitFor();
                assertThat(r.isNull()).isTrue();
            } else {
                if (rank == 1) {
                    world.recv(token, 1, MPI.INT, 0, 3);
                    assertThat(token[0]).isEqualTo(42);
                }
                dup = world.iDup();
                Request.waitAll(new Request[] {dup.getRequest()});
            }
            assertThat(dup.isNull()).isFalse();
            assertThat(dup.getSize()).isEqualTo(size);
            assertThat(dup.getRank()).isEqualTo(rank);
            assertThat(dup.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
            assertThat(Comm.compare(dup, world)).isEqualTo(MPI.CONGRUENT);
            int[] sum = {rank};
            dup.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(size * (size - 1) / 2);
            // several iDups in a row, completed in the opposite order, each its own context
            Comm a = world.iDup();
            Comm b = world.iDup();
            MpiJob.present(b.getRequest()).waitFor();
            MpiJob.present(a.getRequest()).waitFor();
            int next = (rank + 1) % size;
            int prev = (rank - 1 + size) % size;
            int[] fromA = new int[1];
            int[] fromB = new int[1];
            Request[] rs = {a.iRecv(IntBuffer.wrap(fromA), 1, MPI.INT, prev, 0),
                b.iRecv(IntBuffer.wrap(fromB), 1, MPI.INT, prev, 0)};
            b.send(new int[] {2}, 1, MPI.INT, next, 0);
            a.send(new int[] {1}, 1, MPI.INT, next, 0);
            Request.waitAll(rs);
            assertThat(fromA[0]).isEqualTo(1);
            assertThat(fromB[0]).isEqualTo(2);
            MPI.Finalize();
        });
    }

    @Test
    void infoHintsAreSetReadInheritedByDupAndReplacedByDupWithInfo() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Intracomm c = world.dup();
            assertThat(c.getInfo().size()).isZero();
            Info hints = new Info();
            hints.set("mpi_assert_no_any_tag", "true");
            hints.set("app_hint", "x");
            c.setInfo(hints);
            hints.set("app_hint", "changed after setInfo");
            Info got = c.getInfo();
            assertThat(got).isNotSameAs(hints);
            assertThat(got.size()).isEqualTo(2);
            assertThat(got.getKey(0)).isEqualTo("mpi_assert_no_any_tag");
            assertThat(MpiJob.present(got.get("app_hint"))).isEqualTo("x");
            assertThat(MpiJob.present(c.dup().getInfo().get("app_hint"))).isEqualTo("x");
            Info other = new Info();
            other.set("only", "this");
            Intracomm withInfo = c.dupWithInfo(other);
            assertThat(withInfo.getInfo().size()).isEqualTo(1);
            assertThat(MpiJob.present(withInfo.getInfo().get("only"))).isEqualTo("this");
            assertThat(Comm.compare(withInfo, c)).isEqualTo(MPI.CONGRUENT);
            assertThat(c.dupWithInfo(MPI.INFO_NULL).getInfo().size()).isZero();
            assertThat(MpiErrors.errorClassOf(() -> c.setInfo(MPI.INFO_NULL))).isEqualTo(MPI.ERR_INFO);
            Info freed = new Info();
            freed.free();
            assertThat(MpiErrors.errorClassOf(() -> c.setInfo(freed))).isEqualTo(MPI.ERR_INFO);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 8})
    void splitTypeSharedGroupsTheRanksOfANode(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            // every rank of this JVM is on one node; keys reverse the order
            Intracomm node = world.splitType(Comm.TYPE_SHARED, -rank, MPI.INFO_NULL);
            assertThat(node.getSize()).isEqualTo(size);
            assertThat(node.getRank()).isEqualTo(size - 1 - rank);
            int[] v = {rank};
            node.bcast(v, 1, MPI.INT, 0);
            assertThat(v[0]).isEqualTo(size - 1);
            Intracomm none = world.splitType(rank == 0 ? MPI.UNDEFINED : Comm.TYPE_SHARED, 0, MPI.INFO_NULL);
            assertThat(none.isNull()).isEqualTo(rank == 0);
            if (rank != 0) {
                assertThat(none.getSize()).isEqualTo(size - 1);
            }
            assertThat(MpiErrors.errorClassOf(() -> world.splitType(7, 0, MPI.INFO_NULL))).isEqualTo(MPI.ERR_ARG);
            MPI.Finalize();
        });
    }

    @Test
    void createGroupIsCollectiveOverTheGroupOnly() throws Exception {
        MpiJob.run(4, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            boolean even = rank % 2 == 0;
            if (even) {
                // ranks 1 and 3 never call createGroup for this group: they wait for the result below
                Intracomm evens = world.createGroup(world.getGroup().incl(new int[] {2, 0}), 9);
                assertThat(evens.getSize()).isEqualTo(2);
                assertThat(evens.getRank()).isEqualTo(rank == 2 ? 0 : 1);
                int[] v = {rank};
                evens.allReduce(v, 1, MPI.INT, MPI.SUM);
                assertThat(v[0]).isEqualTo(2);
                if (rank == 0) {
                    world.send(v, 1, MPI.INT, 1, 4);
                }
            } else {
                if (rank == 1) {
                    int[] v = new int[1];
                    world.recv(v, 1, MPI.INT, 0, 4);
                    assertThat(v[0]).isEqualTo(2);
                }
                Intracomm odds = world.createGroup(world.getGroup().incl(new int[] {1, 3}), 9);
                assertThat(odds.getRank()).isEqualTo(rank / 2);
                odds.barrier();
                // a non-member gets a null communicator without any communication
                assertThat(world.createGroup(world.getGroup().incl(new int[] {0, 2}), 1).isNull()).isTrue();
            }
            assertThat(MpiErrors.errorClassOf(() -> world.createGroup(world.getGroup(), -1)))
                    .isEqualTo(MPI.ERR_TAG);
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> MPI.COMM_SELF.createGroup(world.getGroup(), 1)))
                    .isEqualTo(MPI.ERR_GROUP);
            MPI.Finalize();
        });
    }

    @Test
    void extrasOverUdp() throws Exception {
        MpiJob.run("udp", 3, rank -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            Intracomm world = MPI.COMM_WORLD;
            int key = Comm.createKeyval();
            world.setAttr(key, "w" + rank);
            Intracomm dup = world.iDup();
            if (rank == 0) {
                world.send(new int[] {1}, 1, MPI.INT, 2, 0);
            } else if (rank == 2) {
                world.recv(new int[1], 1, MPI.INT, 0, 0);
            }
            MpiJob.present(dup.getRequest()).waitFor();
            assertThat(dup.getAttr(key)).isEqualTo("w" + rank);
            Intracomm node = dup.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
            assertThat(node.getSize()).isEqualTo(3);
            if (rank != 1) {
                Intracomm pair = node.createGroup(node.getGroup().incl(new int[] {0, 2}), 3);
                int[] v = {rank};
                pair.allReduce(v, 1, MPI.INT, MPI.MAX);
                assertThat(v[0]).isEqualTo(2);
            }
            MPI.Finalize();
        });
    }
}
