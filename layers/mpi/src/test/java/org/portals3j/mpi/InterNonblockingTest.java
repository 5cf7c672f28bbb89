package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Intercommunicators between the even and the odd world ranks, 2 to 8 ranks on inmem and udp: the nonblocking
 * collectives (several under way at once, completed together) and reduceScatter and reduceScatterBlock, blocking and
 * nonblocking, with MPI 3.1 section 5.10.1's semantics (each group gets the reduction of the other's data, scattered
 * by its own counts).
 */
class InterNonblockingTest {

    /** The sum of the world ranks of the group of {@code colour}. */
    private static int worldSum(int size, int colour) {
        int s = 0;
        for (int r = 0; r < EvenOddGroups.size(size, colour); r++) {
            s += 2 * r + colour;
        }
        return s;
    }

    private static IntBuffer ints(int... values) {
        IntBuffer b = MPI.newIntBuffer(Math.max(1, values.length));
        for (int i = 0; i < values.length; i++) {
            b.put(i, values[i]);
        }
        return b;
    }

    @ParameterizedTest
    @CsvSource({"inmem,2", "inmem,3", "inmem,5", "inmem,8", "udp,3", "udp,4"})
    void nonblockingCollectivesBetweenTheGroups(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 78);
            int colour = rank % 2;
            int me = rank / 2;
            int remote = EvenOddGroups.size(size, 1 - colour);
            int remoteSum = worldSum(size, 1 - colour);

            IntBuffer sum = ints(0);
            IntBuffer bcast = colour == 0 && me == 0 ? ints(7, 8) : ints(0, 0);
            IntBuffer gathered = ints(new int[remote]);
            IntBuffer toAll = MPI.newIntBuffer(remote);
            for (int r = 0; r < remote; r++) {
                toAll.put(r, 1000 * rank + r);
            }
            IntBuffer fromAll = MPI.newIntBuffer(remote);
            IntBuffer everyone = MPI.newIntBuffer(remote);
            IntBuffer scattered = ints(0);
            IntBuffer scatterSource = MPI.newIntBuffer(remote);
            for (int r = 0; r < remote; r++) {
                scatterSource.put(r, 50 + r);
            }
            IntBuffer reduced = ints(0);
            Request[] all = {
                inter.iAllReduce(ints(rank), sum, 1, MPI.INT, MPI.SUM),
                inter.iBcast(bcast, 2, MPI.INT, EvenOddGroups.root(rank, 0)),
                inter.iBarrier(),
                inter.iGather(ints(rank), 1, MPI.INT, gathered, 1, MPI.INT, EvenOddGroups.root(rank, 1)),
                inter.iAllToAll(toAll, 1, MPI.INT, fromAll, 1, MPI.INT),
                inter.iAllGather(ints(-rank), 1, MPI.INT, everyone, 1, MPI.INT),
                inter.iScatter(scatterSource, 1, MPI.INT, scattered, 1, MPI.INT, EvenOddGroups.root(rank, 1)),
                inter.iReduce(ints(rank), reduced, 1, MPI.INT, MPI.MAX, EvenOddGroups.root(rank, 0)),
            };
            Request.waitAll(all);
            assertThat(sum.get(0)).isEqualTo(remoteSum);
            if (colour == 1) {
                assertThat(new int[] {bcast.get(0), bcast.get(1)}).containsExactly(7, 8);
                assertThat(scattered.get(0)).as("nothing for the root's group").isZero();
            } else {
                assertThat(scattered.get(0)).isEqualTo(50 + me);
            }
            if (colour == 1 && me == 0) {
                for (int r = 0; r < remote; r++) {
                    assertThat(gathered.get(r)).isEqualTo(2 * r);
                }
            }
            if (colour == 0 && me == 0) {
                assertThat(reduced.get(0)).isEqualTo(2 * (remote - 1) + 1);
            }
            for (int r = 0; r < remote; r++) {
                int from = 2 * r + 1 - colour;
                assertThat(fromAll.get(r)).isEqualTo(1000 * from + me);
                assertThat(everyone.get(r)).isEqualTo(-from);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @CsvSource({"inmem,2", "inmem,3", "inmem,6", "inmem,8", "udp,3", "udp,4"})
    void reduceScatterGivesEachGroupTheOthersReduction(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 78);
            int colour = rank % 2;
            int me = rank / 2;
            int local = EvenOddGroups.size(size, colour);
            int remote = EvenOddGroups.size(size, 1 - colour);
            int remoteSum = worldSum(size, 1 - colour);
            int total = 12; // the same in both groups, split unevenly over each group's ranks
            int[] counts = new int[local];
            int first = 0;
            for (int i = 0; i < local; i++) {
                counts[i] = total / local + (i < total % local ? 1 : 0);
                first += i < me ? counts[i] : 0;
            }
            int[] send = new int[total];
            for (int j = 0; j < total; j++) {
                send[j] = 100 * rank + j;
            }
            int[] mine = new int[counts[me]];
            inter.reduceScatter(send, mine, counts, MPI.INT, MPI.SUM);
            IntBuffer nb = MPI.newIntBuffer(counts[me]);
            IntBuffer nbSend = MPI.newIntBuffer(total).put(send);
            Request r = inter.iReduceScatter(nbSend, nb, counts, MPI.INT, MPI.SUM);
            r.waitFor();
            for (int k = 0; k < counts[me]; k++) {
                int expected = 100 * remoteSum + remote * (first + k);
                assertThat(mine[k]).isEqualTo(expected);
                assertThat(nb.get(k)).isEqualTo(expected);
            }
            Datatype pairs = Datatype.createVector(2, 1, 2, MPI.INT); // ints 0 and 2 of every three
            pairs.commit();
            int[] strided = new int[3 * total / 2];
            for (int j = 0; j < total; j++) {
                strided[j / 2 * 3 + j % 2 * 2] = 100 * rank + j;
            }
            if (total % (2 * local) == 0 && total % (2 * remote) == 0) { // whole pairs per rank in both groups
                int[] itemCounts = IntStream.of(counts).map(k -> k / 2).toArray();
                int[] out = new int[3 * itemCounts[me]];
                Arrays.fill(out, -1);
                inter.reduceScatter(strided, out, itemCounts, pairs, MPI.SUM);
                for (int k = 0; k < counts[me]; k++) {
                    assertThat(out[k / 2 * 3 + k % 2 * 2]).isEqualTo(100 * remoteSum + remote * (first + k));
                    assertThat(out[k / 2 * 3 + 1]).as("the gaps untouched").isEqualTo(-1);
                }
            }
            if (local == remote) { // reduceScatterBlock needs the same total in both groups
                int[] block = new int[2];
                int[] in = new int[2 * local];
                for (int j = 0; j < in.length; j++) {
                    in[j] = rank + j;
                }
                inter.reduceScatterBlock(in, block, 2, MPI.INT, MPI.SUM);
                IntBuffer nbBlock = MPI.newIntBuffer(2);
                inter.iReduceScatterBlock(MPI.newIntBuffer(2 * local).put(in), nbBlock, 2, MPI.INT, MPI.SUM)
                        .waitFor();
                for (int k = 0; k < 2; k++) {
                    assertThat(block[k]).isEqualTo(remoteSum + remote * (2 * me + k));
                    assertThat(nbBlock.get(k)).isEqualTo(block[k]);
                }
            }
            MPI.Finalize();
        });
    }
}
