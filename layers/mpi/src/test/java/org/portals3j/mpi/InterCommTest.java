package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Intercommunicators over inmem on 2 to 4 and 8 ranks (the even and the odd world ranks as the two groups) and over
 * udp: createIntercomm, sizes and groups, point-to-point naming the remote group, every blocking collective between
 * the groups (ROOT and PROC_NULL), merge in both orders, dup, and the wrong uses.
 */
class InterCommTest {

    /** The world rank of rank {@code r} of the group of colour {@code colour}. */
    private static int worldRank(int colour, int r) {
        return 2 * r + colour;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void pointToPointNamesTheRemoteGroup(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 77);
            int colour = rank % 2;
            int localSize = EvenOddGroups.size(size, colour);
            int remoteSize = EvenOddGroups.size(size, 1 - colour);
            assertThat(inter.isInter()).isTrue();
            assertThat(MPI.COMM_WORLD.isInter()).isFalse();
            assertThat(inter.getSize()).isEqualTo(localSize);
            assertThat(inter.getRank()).isEqualTo(rank / 2);
            assertThat(inter.getRemoteSize()).isEqualTo(remoteSize);
            assertThat(inter.getGroup().getSize()).isEqualTo(localSize);
            assertThat(inter.getGroup().getRank()).isEqualTo(rank / 2);
            assertThat(inter.getRemoteGroup().getSize()).isEqualTo(remoteSize);
            assertThat(inter.getRemoteGroup().getRank()).isEqualTo(MPI.UNDEFINED);
            assertThat(inter.getTopology()).isEqualTo(MPI.UNDEFINED);
            assertThat(Comm.compare(inter, MPI.COMM_WORLD)).isEqualTo(MPI.UNEQUAL);
            for (int r = 0; r < remoteSize; r++) {
                inter.send(new int[] {rank}, 1, MPI.INT, r, rank / 2);
            }
            boolean[] seen = new boolean[remoteSize];
            for (int k = 0; k < remoteSize; k++) {
                int[] got = new int[1];
                Status s = inter.recv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertThat(s.getSource()).isEqualTo(s.getTag());
                assertThat(got[0]).isEqualTo(worldRank(1 - colour, s.getSource()));
                seen[s.getSource()] = true;
            }
            assertThat(seen).containsOnly(true);
            // a dup is its own context: the same tag on both arrives on each
            Intercomm dup = inter.dup();
            assertThat(Comm.compare(dup, inter)).isEqualTo(MPI.CONGRUENT);
            assertThat(dup.getRemoteSize()).isEqualTo(remoteSize);
            if (rank / 2 == 0) { // the leaders: the same tag on both communicators
                int[] a = new int[1];
                int[] b = new int[1];
                dup.send(new int[] {-rank - 1}, 1, MPI.INT, 0, 4);
                inter.send(new int[] {rank + 1}, 1, MPI.INT, 0, 4);
                inter.recv(b, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                dup.recv(a, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertThat(b[0]).isEqualTo(2 - rank);
                assertThat(a[0]).isEqualTo(rank - 2);
            }
            assertThat(inter.clone().getRemoteSize()).isEqualTo(remoteSize);
            dup.free();
            inter.free();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void collectivesMoveDataBetweenTheGroups(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 77);
            int colour = rank % 2;
            int me = rank / 2;
            int remoteSize = inter.getRemoteSize();
            int localSize = inter.getSize();
            inter.barrier();
            // bcast from even rank 0, then from the last odd rank
            int[] value = {colour == 0 && me == 0 ? 42 : -1};
            inter.bcast(value, 1, MPI.INT, colour == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0);
            assertThat(value[0]).isEqualTo(colour == 0 && me != 0 ? -1 : 42);
            int oddRoot = EvenOddGroups.size(size, 1) - 1;
            double[] d = {colour == 1 && me == oddRoot ? 2.5 : 0};
            inter.bcast(d, 1, MPI.DOUBLE, colour == 1 ? (me == oddRoot ? MPI.ROOT : MPI.PROC_NULL) : oddRoot);
            assertThat(d[0]).isEqualTo(colour == 1 && me != oddRoot ? 0 : 2.5);
            // reduce: the odd group's root gets the sum over the even group
            int[] sum = {-1};
            inter.reduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM,
                    colour == 1 ? (me == oddRoot ? MPI.ROOT : MPI.PROC_NULL) : oddRoot);
            int evenSum = 0;
            int oddSum = 0;
            for (int r = 0; r < size; r++) {
                if (r % 2 == 0) {
                    evenSum += r + 1;
                } else {
                    oddSum += r + 1;
                }
            }
            assertThat(sum[0]).isEqualTo(colour == 1 && me == oddRoot ? evenSum : -1);
            // allReduce: each group gets the other's sum
            long[] all = new long[1];
            inter.allReduce(new long[] {rank + 1}, all, 1, MPI.LONG, MPI.SUM);
            assertThat(all[0]).isEqualTo(colour == 0 ? oddSum : evenSum);
            // gather to even rank 0 from the odd group; scatter from odd rank 0 to the even group
            int[] gathered = new int[remoteSize];
            inter.gather(new int[] {rank}, 1, MPI.INT, gathered, 1, MPI.INT,
                    colour == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0);
            if (colour == 0 && me == 0) {
                for (int r = 0; r < remoteSize; r++) {
                    assertThat(gathered[r]).isEqualTo(worldRank(1, r));
                }
            }
            int[] part = {-1};
            int[] blocks = new int[remoteSize];
            for (int r = 0; r < remoteSize; r++) {
                blocks[r] = 10 * worldRank(0, r);
            }
            inter.scatter(blocks, 1, MPI.INT, part, 1, MPI.INT,
                    colour == 1 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0);
            assertThat(part[0]).isEqualTo(colour == 0 ? 10 * rank : -1);
            // allGather: each rank gets the other group's blocks in its rank order
            int[] others = new int[remoteSize];
            inter.allGather(new int[] {rank}, 1, MPI.INT, others, 1, MPI.INT);
            for (int r = 0; r < remoteSize; r++) {
                assertThat(others[r]).isEqualTo(worldRank(1 - colour, r));
            }
            // allToAll: block j to remote rank j
            int[] out = new int[remoteSize];
            for (int j = 0; j < remoteSize; j++) {
                out[j] = 100 * rank + j;
            }
            int[] in = new int[remoteSize];
            inter.allToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            for (int j = 0; j < remoteSize; j++) {
                assertThat(in[j]).isEqualTo(100 * worldRank(1 - colour, j) + me);
            }
            assertThat(localSize).isPositive();
            inter.barrier();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void mergeOrdersTheGroupsByHigh(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 77);
            int colour = rank % 2;
            int evens = EvenOddGroups.size(size, 0);
            int odds = EvenOddGroups.size(size, 1);
            // the even group high: the odd ranks come first
            Intracomm oddFirst = inter.merge(colour == 0);
            assertThat(oddFirst.isInter()).isFalse();
            assertThat(oddFirst.getSize()).isEqualTo(size);
            assertThat(oddFirst.getRank()).isEqualTo(colour == 1 ? rank / 2 : odds + rank / 2);
            // the same value on both sides: the group of world rank 0 first
            Intracomm evenFirst = inter.merge(true);
            assertThat(evenFirst.getRank()).isEqualTo(colour == 0 ? rank / 2 : evens + rank / 2);
            int[] order = new int[size];
            evenFirst.allGather(new int[] {rank}, 1, MPI.INT, order, 1, MPI.INT);
            for (int r = 0; r < size; r++) {
                assertThat(order[r]).isEqualTo(r < evens ? 2 * r : 2 * (r - evens) + 1);
            }
            int[] total = {rank};
            oddFirst.allReduce(total, 1, MPI.INT, MPI.SUM);
            assertThat(total[0]).isEqualTo(size * (size - 1) / 2);
            // a communicator made afterwards from the world does not collide with the three contexts made above
            Intracomm dup = MPI.COMM_WORLD.dup();
            int[] got = new int[1];
            int next = (rank + 1) % size;
            int prev = (rank - 1 + size) % size;
            dup.sendRecv(new int[] {rank}, 1, MPI.INT, next, 0, got, 1, MPI.INT, prev, 0);
            assertThat(got[0]).isEqualTo(prev);
            MPI.Finalize();
        });
    }

    @Test
    void wrongUsesFailWithTheReferenceErrorClasses() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 77);
            int remoteSize = inter.getRemoteSize();
            assertThat(inter.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> MPI.COMM_WORLD.createIntercomm(inter, 0, 1, 3)))
                    .isEqualTo(MPI.ERR_COMM);
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> MPI.COMM_WORLD.createIntercomm(MPI.COMM_SELF, 1, 1, 3)))
                    .isEqualTo(MPI.ERR_RANK);
            int[] buf = new int[4];
            assertThat(MpiErrors.errorClassOf(() -> inter.send(buf, 1, MPI.INT, remoteSize, 0)))
                    .isEqualTo(MPI.ERR_RANK);
            assertThat(MpiErrors.errorClassOf(() -> inter.bcast(buf, 1, MPI.INT, remoteSize)))
                    .isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> inter.bcast(buf, 1, MPI.INT, -7))).isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> inter.allReduce(buf, 1, MPI.INT, MPI.SUM)))
                    .isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(() -> inter.reduce(buf, 1, MPI.INT, MPI.SUM, MPI.ROOT)))
                    .isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(() -> inter.allGather(buf, 1, MPI.INT))).isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(() -> inter.gather(buf, 1, MPI.INT, MPI.ROOT)))
                    .isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(() -> inter.reduceScatterBlock(buf, 1, MPI.INT, MPI.SUM)))
                    .isEqualTo(MPI.ERR_COMM);
            IntBuffer direct = MPI.newIntBuffer(4);
            assertThat(MpiErrors.errorClassOf(() -> inter.iAllReduce(direct, 1, MPI.INT, MPI.SUM)))
                    .as("no in-place nonblocking form either").isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(() -> inter.iBcast(direct, 1, MPI.INT, remoteSize)))
                    .isEqualTo(MPI.ERR_ROOT);
            // nothing was lost: the intercommunicator still works
            int[] all = new int[1];
            inter.allReduce(new int[] {1}, all, 1, MPI.INT, MPI.SUM);
            assertThat(all[0]).isEqualTo(remoteSize);
            inter.free();
            assertThat(MpiErrors.errorClassOf(inter::getRemoteSize)).isEqualTo(MPI.ERR_COMM);
            assertThat(Intercomm.getParent().isNull()).isTrue();
            MPI.Finalize();
        });
    }

    @Test
    void anIntercommunicatorOverUdp() throws Exception {
        MpiJob.run("udp", 3, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 77);
            int[] all = new int[inter.getRemoteSize()];
            inter.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
            assertThat(all).containsExactly(rank % 2 == 0 ? new int[] {1} : new int[] {0, 2});
            double[] big = new double[50_000]; // above the eager limit: by rendezvous
            if (rank == 1) {
                big[big.length - 1] = 9.5;
            }
            inter.bcast(big, big.length, MPI.DOUBLE, rank == 1 ? MPI.ROOT : 0);
            assertThat(big[big.length - 1]).isEqualTo(9.5);
            Intracomm merged = inter.merge(rank % 2 == 1);
            int[] sum = {rank};
            merged.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(3);
            assertThat(merged.getRank()).isEqualTo(rank == 0 ? 0 : rank == 2 ? 1 : 2);
            MPI.Finalize();
        });
    }
}
