package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * iAllToAllw on 1 to 8 ranks over inmem: derived types on both sides with byte displacements (the blocking
 * allToAllw test's layout, read back through a strided receive type), outstanding together with an iAllReduce
 * started before it and completed after it, and a short count array as ERR_ARG.
 */
class NonblockingAllToAllwTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void derivedBlocksWithByteDisplacementsOverlapAnotherCollective(int n) throws Exception {
        MpiJob.run(n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Datatype pair = Datatype.createVector(2, 1, 2, MPI.LONG); // longs 0 and 2 of 3
            pair.commit();
            LongBuffer send = MPI.newLongBuffer(3 * n);
            for (int i = 0; i < 3 * n; i++) {
                send.put(i, 1000L * rank + i);
            }
            int[] sendCount = new int[n];
            int[] sDispls = new int[n];
            int[] recvCount = new int[n];
            int[] rDispls = new int[n];
            Datatype[] sendTypes = new Datatype[n];
            Datatype[] recvTypes = new Datatype[n];
            for (int j = 0; j < n; j++) {
                sendCount[j] = 1;
                sDispls[j] = 24 * j; // bytes: the block of 3 longs for rank j
                sendTypes[j] = pair;
                recvCount[j] = 1;
                rDispls[j] = 24 * j; // the pair from rank j lands in longs 0 and 2 of block j
                recvTypes[j] = pair;
            }
            LongBuffer recv = MPI.newLongBuffer(3 * n);
            for (int i = 0; i < 3 * n; i++) {
                recv.put(i, -1);
            }
            IntBuffer sum = MPI.newIntBuffer(1);
            sum.put(0, rank + 1);
            Request before = world.iAllReduce(sum, 1, MPI.INT, MPI.SUM);
            Request w = world.iAllToAllw(send, sendCount, sDispls, sendTypes, recv, recvCount, rDispls, recvTypes);
            w.waitFor();
            before.waitFor();
            assertThat(sum.get(0)).isEqualTo(n * (n + 1) / 2);
            for (int r = 0; r < n; r++) {
                assertThat(new long[] {recv.get(3 * r), recv.get(3 * r + 1), recv.get(3 * r + 2)})
                        .containsExactly(1000L * r + 3 * rank, -1, 1000L * r + 3 * rank + 2);
            }
            // and the other way round: iAllToAllw outstanding while a second one and an iBarrier complete first
            LongBuffer again = MPI.newLongBuffer(3 * n);
            LongBuffer plain = MPI.newLongBuffer(2 * n);
            int[] twos = new int[n];
            int[] plainDispls = new int[n];
            Datatype[] longs = new Datatype[n];
            for (int j = 0; j < n; j++) {
                twos[j] = 2;
                plainDispls[j] = 16 * j;
                longs[j] = MPI.LONG;
            }
            Request first = world.iAllToAllw(send, sendCount, sDispls, sendTypes, again, recvCount, rDispls,
                    recvTypes);
            Request second = world.iAllToAllw(send, sendCount, sDispls, sendTypes, plain, twos, plainDispls, longs);
            world.iBarrier().waitFor();
            second.waitFor();
            first.waitFor();
            for (int r = 0; r < n; r++) {
                assertThat(again.get(3 * r + 2)).isEqualTo(1000L * r + 3 * rank + 2);
                assertThat(new long[] {plain.get(2 * r), plain.get(2 * r + 1)})
                        .containsExactly(1000L * r + 3 * rank, 1000L * r + 3 * rank + 2);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void aShortCountArrayIsErrArgAndTheCommunicatorGoesOn(int n) throws Exception {
        MpiJob.run(n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            LongBuffer buf = MPI.newLongBuffer(n);
            int[] one = {1};
            Datatype[] types = {MPI.LONG};
            assertThat(MpiErrors.errorClassOf(() -> world.iAllToAllw(buf, one, new int[] {0}, types, buf, one,
                    new int[] {0}, types))).isEqualTo(MPI.ERR_ARG);
            int[] sum = {1};
            world.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(n);
            MPI.Finalize();
        });
    }
}
