package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Communicator management on 1 to 4 ranks over inmem (dup, split and create on 8 too): dup and clone (context
 * isolation, comparison, inherited handler), split (key order, ties, UNDEFINED), create, free, and the hidden
 * collective context.
 */
class CommManagementTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void dupGivesACongruentCommunicatorWithItsOwnContext(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Intracomm dup = world.dup();
            Intracomm clone = world.clone();
            assertThat(dup.isNull()).isFalse();
            assertThat(dup.getSize()).isEqualTo(size);
            assertThat(dup.getRank()).isEqualTo(rank);
            assertThat(dup.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
            assertThat(Comm.compare(dup, dup)).isEqualTo(MPI.IDENT);
            assertThat(Comm.compare(dup, world)).isEqualTo(MPI.CONGRUENT);
            assertThat(Comm.compare(dup, clone)).isEqualTo(MPI.CONGRUENT);
            assertThat(Comm.compare(dup.dup(), MPI.COMM_SELF)).isEqualTo(size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL);
            // the same tag on three communicators of the same group: each receive gets its own communicator's
            int next = (rank + 1) % size;
            int prev = (rank - 1 + size) % size;
            int[] fromWorld = new int[1];
            int[] fromDup = new int[1];
            int[] fromClone = new int[1];
            Request[] r = {
                clone.iRecv(IntBuffer.wrap(fromClone), 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG),
                dup.iRecv(IntBuffer.wrap(fromDup), 1, MPI.INT, prev, 5),
                world.iRecv(IntBuffer.wrap(fromWorld), 1, MPI.INT, prev, 5)};
            world.send(new int[] {1}, 1, MPI.INT, next, 5);
            dup.send(new int[] {2}, 1, MPI.INT, next, 5);
            clone.send(new int[] {3}, 1, MPI.INT, next, 5);
            Request.waitAll(r);
            assertThat(new int[] {fromWorld[0], fromDup[0], fromClone[0]}).containsExactly(1, 2, 3);
            dup.free();
            assertThat(dup.isNull()).isTrue();
            assertThat(MpiErrors.errorClassOf(dup::getRank)).isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(dup::barrier)).isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(dup::free)).isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(world::free)).isEqualTo(MPI.ERR_COMM);
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(MPI.COMM_SELF::free)).isEqualTo(MPI.ERR_COMM);
            assertThat(world.isNull()).isFalse();
            clone.barrier();
            clone.free();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void splitOrdersByKeyThenRankAndUndefinedGivesANullCommunicator(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            // colour by parity, key reversing the order
            Intracomm parity = world.split(rank % 2, -rank);
            int members = (size - rank % 2 + 1) / 2;
            assertThat(parity.getSize()).isEqualTo(members);
            assertThat(parity.getRank()).isEqualTo(members - 1 - rank / 2);
            assertThat(parity.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
            int[] sum = {rank};
            parity.allReduce(sum, 1, MPI.INT, MPI.SUM);
            int expected = 0;
            for (int r = rank % 2; r < size; r += 2) {
                expected += r;
            }
            assertThat(sum[0]).isEqualTo(expected);
            // equal keys: ties broken by the old rank; colour UNDEFINED for the last rank
            Intracomm ties = world.split(rank == size - 1 && size > 1 ? MPI.UNDEFINED : 0, 7);
            if (rank == size - 1 && size > 1) {
                assertThat(ties.isNull()).isTrue();
                assertThat(MpiErrors.errorClassOf(ties::getSize)).isEqualTo(MPI.ERR_COMM);
            } else {
                assertThat(ties.getRank()).isEqualTo(rank);
                assertThat(ties.getSize()).isEqualTo(Math.max(1, size - 1));
                assertThat(Comm.compare(ties, world)).isEqualTo(size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL);
                ties.barrier();
            }
            // one colour, reversed keys: the same members in another order
            Intracomm reversed = world.split(3, size - rank);
            assertThat(reversed.getRank()).isEqualTo(size - 1 - rank);
            assertThat(Comm.compare(reversed, world)).isEqualTo(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR);
            assertThat(Group.translateRanks(reversed.getGroup(), new int[] {0}, world.getGroup()))
                    .containsExactly(size - 1);
            int[] bcast = {reversed.getRank() == 0 ? 42 : 0};
            reversed.bcast(bcast, 1, MPI.INT, 0);
            assertThat(bcast[0]).isEqualTo(42);
            assertThat(MpiErrors.errorClassOf(() -> world.split(-5, 0))).isEqualTo(MPI.ERR_ARG);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void createGivesTheGroupACommunicatorAndTheOthersANullOne(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Group evens = world.getGroup().rangeIncl(new int[][] {{0, size - 1, 2}});
            Intracomm even = world.create(evens);
            assertThat(even.isNull()).isEqualTo(rank % 2 == 1);
            if (!even.isNull()) {
                assertThat(even.getRank()).isEqualTo(rank / 2);
                assertThat(even.getSize()).isEqualTo((size + 1) / 2);
                int[] all = new int[even.getSize()];
                even.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
                for (int i = 0; i < all.length; i++) {
                    assertThat(all[i]).isEqualTo(2 * i);
                }
                // a communicator made from a made one
                Intracomm sub = even.create(even.getGroup().incl(new int[] {0}));
                assertThat(sub.isNull()).isEqualTo(rank != 0);
                if (!sub.isNull()) {
                    sub.free();
                }
                even.free();
            }
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            Group self = MPI.COMM_SELF.getGroup();
            Intracomm selfOnly = MPI.COMM_SELF.create(self);
            assertThat(selfOnly.getSize()).isEqualTo(1);
            if (size > 1) {
                Group other = world.getGroup().incl(new int[] {(rank + 1) % size});
                assertThat(MpiErrors.errorClassOf(() -> MPI.COMM_SELF.create(other))).isEqualTo(MPI.ERR_GROUP);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4})
    void contextIdsStayDistinctAfterRanksMadeDifferentNumbersOfCommunicators(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Intracomm half = world.split(rank == 0 ? 0 : 1, rank);
            // ranks other than 0 make more communicators than rank 0 does
            Intracomm[] made = new Intracomm[rank == 0 ? 1 : 5];
            for (int i = 0; i < made.length; i++) {
                made[i] = half.dup();
            }
            Intracomm fresh = world.dup();
            // the same tag on each: every message lands on its own communicator
            Intracomm last = made[made.length - 1];
            int next = (rank + 1) % size;
            int prev = (rank - 1 + size) % size;
            int[] got = new int[1];
            Request fromFresh = fresh.iRecv(IntBuffer.wrap(got), 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            if (last.getSize() > 1) {
                int[] onLast = new int[1];
                Request r = last.iRecv(IntBuffer.wrap(onLast), 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                last.send(new int[] {-1}, 1, MPI.INT, (last.getRank() + 1) % last.getSize(), 9);
                r.waitFor();
                assertThat(onLast[0]).isEqualTo(-1);
            }
            fresh.send(new int[] {rank}, 1, MPI.INT, next, 9);
            Status s = fromFresh.waitStatus();
            assertThat(got[0]).isEqualTo(prev);
            assertThat(s.getSource()).isEqualTo(prev);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void collectivesNeverMatchAWildcardUserReceive(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int[] got = {-1};
            Request wild = rank == 0
                    ? world.iRecv(IntBuffer.wrap(got), 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG) : null;
            int[] data = {rank};
            world.bcast(data, 1, MPI.INT, size - 1);
            world.allReduce(data, 1, MPI.INT, MPI.SUM);
            world.barrier();
            int[] all = new int[size];
            world.gather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT, 0);
            if (wild != null) {
                assertThat(wild.test()).isFalse();
            }
            world.barrier();
            if (rank == 1) {
                world.send(new int[] {1234}, 1, MPI.INT, 0, 77);
            }
            if (wild != null) {
                Status s = wild.waitStatus();
                assertThat(s.getTag()).isEqualTo(77);
                assertThat(got[0]).isEqualTo(1234);
            }
            MPI.Finalize();
        });
    }
}
