package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.Comm;
import mpi.Group;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** Groups and infos: local structures; communicator comparison. */
class GroupInfoTest {

    private static int errorClass(Exception e) {
        return ((MPIException) e).getErrorClass();
    }

    @Test
    void groupSetOperationsAndRankTranslation() throws Exception {
        MpiJob.run(4, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            Group world = MPI.COMM_WORLD.getGroup();
            assertThat(world.getSize()).isEqualTo(4);
            assertThat(world.getRank()).isEqualTo(rank);
            Group odd = world.incl(new int[] {3, 1});
            assertThat(odd.getSize()).isEqualTo(2);
            assertThat(odd.getRank()).isEqualTo(rank == 3 ? 0 : rank == 1 ? 1 : MPI.UNDEFINED);
            Group even = world.excl(new int[] {1, 3});
            assertThat(Group.translateRanks(even, new int[] {0, 1, MPI.PROC_NULL}, world))
                    .containsExactly(0, 2, MPI.PROC_NULL);
            assertThat(Group.translateRanks(world, new int[] {1, 2}, odd)).containsExactly(1, MPI.UNDEFINED);
            Group range = world.rangeIncl(new int[][] {{3, 0, -2}});
            assertThat(Group.translateRanks(range, new int[] {0, 1}, world)).containsExactly(3, 1);
            assertThat(Group.compare(range, odd)).isEqualTo(MPI.IDENT);
            assertThat(Group.compare(world.rangeExcl(new int[][] {{0, 2, 2}}), world.incl(new int[] {3, 1})))
                    .isEqualTo(MPI.SIMILAR);
            assertThat(Group.compare(odd, even)).isEqualTo(MPI.UNEQUAL);
            assertThat(Group.union(odd, even).getSize()).isEqualTo(4);
            assertThat(Group.compare(Group.union(even, odd), world)).isEqualTo(MPI.SIMILAR);
            assertThat(Group.intersection(odd, world).getSize()).isEqualTo(2);
            assertThat(Group.difference(world, odd).getSize()).isEqualTo(2);
            assertThat(MPI.GROUP_EMPTY.getSize()).isZero();
            assertThat(MPI.GROUP_EMPTY.getRank()).isEqualTo(MPI.UNDEFINED);
            assertThatThrownBy(() -> world.incl(new int[] {4})).satisfies(e -> assertThat(errorClass((Exception) e))
                    .isEqualTo(MPI.ERR_RANK));
            assertThatThrownBy(() -> world.incl(new int[] {1, 1})).satisfies(e ->
                    assertThat(errorClass((Exception) e)).isEqualTo(MPI.ERR_RANK));
            odd.free();
            assertThat(odd.isNull()).isTrue();
            assertThatThrownBy(odd::getSize).satisfies(e -> assertThat(errorClass((Exception) e))
                    .isEqualTo(MPI.ERR_GROUP));
            assertThat(Comm.compare(MPI.COMM_WORLD, MPI.COMM_WORLD)).isEqualTo(MPI.IDENT);
            assertThat(Comm.compare(MPI.COMM_WORLD, MPI.COMM_SELF)).isEqualTo(MPI.UNEQUAL);
            assertThat(MPI.COMM_SELF.getGroup().getRank()).isZero();
            MPI.Finalize();
        });
    }

    @Test
    void commSelfOfAOneRankJobIsCongruentToWorld() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            assertThat(Comm.compare(MPI.COMM_WORLD, MPI.COMM_SELF)).isEqualTo(MPI.CONGRUENT);
            MPI.Finalize();
        });
    }

    @Test
    @SuppressWarnings("nullness") // asserts on Info.get, which returns null for an absent key
    void infoKeepsKeysInOrderAndChecksItsLimits() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            Info info = new Info();
            info.set("b", "2");
            info.set("a", "1");
            info.set("b", "3");
            assertThat(info.size()).isEqualTo(2);
            assertThat(info.getKey(0)).isEqualTo("b");
            assertThat(info.get("b")).isEqualTo("3");
            assertThat(info.get("zz")).isNull();
            Info copy = info.clone();
            info.delete("a");
            assertThat(info.size()).isEqualTo(1);
            assertThat(copy.size()).isEqualTo(2);
            assertThat(copy.dup().get("a")).isEqualTo("1");
            assertThatThrownBy(() -> info.delete("a")).satisfies(e -> assertThat(errorClass((Exception) e))
                    .isEqualTo(MPI.ERR_INFO_NOKEY));
            assertThatThrownBy(() -> info.set("k".repeat(MPI.MAX_INFO_KEY + 1), "v")).satisfies(e ->
                    assertThat(errorClass((Exception) e)).isEqualTo(MPI.ERR_INFO_KEY));
            assertThatThrownBy(() -> info.getKey(5)).satisfies(e -> assertThat(errorClass((Exception) e))
                    .isEqualTo(MPI.ERR_ARG));
            assertThatThrownBy(() -> MPI.INFO_ENV.set("x", "y")).satisfies(e ->
                    assertThat(errorClass((Exception) e)).isEqualTo(MPI.ERR_INFO));
            assertThat(MPI.INFO_ENV.get("host")).isNotBlank();
            info.free();
            assertThat(info.isNull()).isTrue();
            MPI.Finalize();
        });
    }
}
