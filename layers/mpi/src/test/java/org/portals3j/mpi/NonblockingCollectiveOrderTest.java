package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several nonblocking collectives outstanding at once on one communicator (mpi-java-api.md section 4.5): of
 * different kinds and of the same kind, completed in varied orders (waitAll, waitAny, test loops, reverse order),
 * mixed with blocking collectives and with blocking point-to-point on the same communicator, including a wildcard
 * receive that must not take a collective's message.
 */
class NonblockingCollectiveOrderTest {
    private static final int BIG = 20_000; // doubles: above the eager limit, so the rounds go by rendezvous

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void differentKindsOutstandingCompleteThroughWaitAllWaitAnyAndTests(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            for (int order = 0; order < 4; order++) {
                Batch b = new Batch(world, rank, size, order);
                switch (order) {
                    case 0 -> Request.waitAll(b.requests);
                    case 1 -> {
                        int done = 0;
                        while (done < b.requests.length) {
                            int i = Request.waitAny(b.requests);
                            assertThat(i).isBetween(0, b.requests.length - 1);
                            assertThat(b.requests[i].isNull()).isTrue();
                            done++;
                        }
                        assertThat(Request.waitAny(b.requests)).isEqualTo(MPI.UNDEFINED);
                    }
                    case 2 -> {
                        int done = 0;
                        while (done < b.requests.length) {
                            int[] some = Request.testSome(b.requests);
                            done += some == null ? 0 : some.length;
                        }
                    }
                    default -> {
                        for (int i = b.requests.length - 1; i >= 0; i--) {
                            while (!b.requests[i].test()) {
                                Thread.onSpinWait();
                            }
                        }
                    }
                }
                b.check();
            }
            MPI.Finalize();
        });
    }

    /** One of each kind, started together; a blocking allReduce in the middle of them. */
    private static final class Batch {
        final Request[] requests;
        final int rank;
        final int size;
        final int order;
        final DoubleBuffer big = MPI.newDoubleBuffer(BIG);
        final int[] bcast = new int[4];
        final IntBuffer gathered;
        final long[] concatenated = new long[1];
        final int[] blocking;
        final int[] scanned = new int[1];

        Batch(Intracomm world, int rank, int size, int order) throws MPIException {
            this.rank = rank;
            this.size = size;
            this.order = order;
            gathered = MPI.newIntBuffer(size);
            for (int i = 0; i < BIG; i++) {
                big.put(i, i + rank + order);
            }
            if (rank == order % size) {
                bcast[0] = 40 + order;
                bcast[3] = 43 + order;
            }
            concatenated[0] = rank + 1;
            requests = new Request[6];
            requests[0] = world.iAllReduce(big, BIG, MPI.DOUBLE, MPI.SUM);
            requests[1] = world.iBcast(IntBuffer.wrap(bcast), 4, MPI.INT, order % size);
            requests[2] = world.iBarrier();
            blocking = new int[] {rank};
            world.allReduce(blocking, 1, MPI.INT, MPI.MAX); // a blocking collective among the nonblocking ones
            requests[3] = world.iAllGather(IntBuffer.wrap(new int[] {rank * 3}), 1, MPI.INT, gathered, 1, MPI.INT);
            requests[4] = world.iAllReduce(LongBuffer.wrap(concatenated), 1, MPI.LONG, new Op(new Concat(), false));
            requests[5] = world.iScan(IntBuffer.wrap(new int[] {rank + 1}), IntBuffer.wrap(scanned), 1, MPI.INT,
                    MPI.SUM);
        }

        void check() {
            int ranksSum = size * (size - 1) / 2;
            assertThat(big.get(0)).isEqualTo((double) ranksSum + size * order);
            assertThat(big.get(BIG - 1)).isEqualTo((double) (BIG - 1) * size + ranksSum + size * order);
            assertThat(bcast).containsExactly(40 + order, 0, 0, 43 + order);
            assertThat(blocking[0]).isEqualTo(size - 1);
            for (int r = 0; r < size; r++) {
                assertThat(gathered.get(r)).isEqualTo(r * 3);
            }
            long expected = 0;
            for (int r = 1; r <= size; r++) {
                expected = expected * 10 + r;
            }
            assertThat(concatenated[0]).isEqualTo(expected);
            assertThat(scanned[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
        }
    }

    /** Decimal concatenation: associative, not commutative (the result shows the order of combination). */
    static final class Concat extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            long[] in = (long[]) inVec;
            long[] inOut = (long[]) inOutVec;
            for (int i = 0; i < count; i++) {
                long scale = 1;
                while (scale <= inOut[i]) {
                    scale *= 10;
                }
                inOut[i] = in[i] * scale + inOut[i];
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void collectivesOfOneKindOutstandingMatchInCallOrder(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Intracomm dup = world.dup();
            int n = 8;
            int[][] values = new int[n][];
            Request[] requests = new Request[n];
            for (int k = 0; k < n; k++) {
                values[k] = new int[] {(k + 1) * (rank + 1)};
                Intracomm on = k % 3 == 2 ? dup : world;
                requests[k] = on.iAllReduce(IntBuffer.wrap(values[k]), 1, MPI.INT, MPI.SUM);
            }
            // completed backwards: the later ones must not have taken the earlier ones' messages
            for (int k = n - 1; k >= 0; k--) {
                Status s = requests[k].waitStatus();
                assertThat(s.getError()).isEqualTo(MPI.SUCCESS);
                assertThat(values[k][0]).isEqualTo((k + 1) * size * (size + 1) / 2);
            }
            dup.free();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void aNonblockingCollectiveOverlapsBlockingPointToPoint(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            DoubleBuffer sum = MPI.newDoubleBuffer(BIG);
            for (int i = 0; i < BIG; i++) {
                sum.put(i, 1.0);
            }
            Request reduce = world.iAllReduce(sum, BIG, MPI.DOUBLE, MPI.SUM);
            Request gather = world.iGather(IntBuffer.wrap(new int[] {rank}), 1, MPI.INT,
                    rank == 0 ? MPI.newIntBuffer(size) : null, 1, MPI.INT, 0);
            // a ring of blocking messages, received with wildcards, while the collectives are under way
            int right = (rank + 1) % size;
            int left = (rank - 1 + size) % size;
            double[] token = new double[BIG];
            token[7] = rank;
            Status s;
            if (rank == 0) {
                world.send(token, BIG, MPI.DOUBLE, right, 5);
                s = world.recv(token, BIG, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
            } else {
                s = world.recv(token, BIG, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                world.send(token, BIG, MPI.DOUBLE, right, 5);
            }
            assertThat(s.getSource()).isEqualTo(left);
            assertThat(s.getTag()).isEqualTo(5);
            assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(BIG);
            assertThat(world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG)).isNull();
            gather.waitFor();
            Status early = reduce.getStatus(); // null while under way; the request stays active either way
            if (early != null) {
                assertThat(early.getError()).isEqualTo(MPI.SUCCESS);
            }
            assertThat(reduce.isNull()).isFalse();
            reduce.waitFor();
            assertThat(reduce.isNull()).isTrue();
            assertThat(sum.get(BIG - 1)).isEqualTo(size);
            MPI.Finalize();
        });
    }
}
