package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data-movement collectives, every overload (full, in place, root-only and non-root forms), on 1 to 4 ranks
 * (3: not a power of two) over inmem, with the root not at rank 0 where the size allows.
 */
class CollectivesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void barrierAndBroadcastOfEveryBufferForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = size - 1;
            world.barrier();
            int[] ints = rank == root ? new int[] {7, 8, 9} : new int[3];
            world.bcast(ints, 3, MPI.INT, root);
            assertThat(ints).containsExactly(7, 8, 9);
            boolean[] flags = rank == root ? new boolean[] {true, false, true} : new boolean[3];
            world.bcast(flags, 3, MPI.BOOLEAN, root);
            assertThat(flags).containsExactly(true, false, true);
            DoubleBuffer direct = MPI.newDoubleBuffer(5000);
            if (rank == 0) {
                IntStream.range(0, 5000).forEach(i -> direct.put(i, i * 0.25));
            }
            world.bcast(direct, 5000, MPI.DOUBLE, 0);
            assertThat(direct.get(4999)).isEqualTo(4999 * 0.25);
            char[] text = new char[10];
            if (rank == root) {
                "collective".getChars(0, 10, text, 0);
            }
            world.bcast(MPI.slice(text, 0), 10, MPI.CHAR, root);
            assertThat(new String(text)).isEqualTo("collective");
            world.bcast(null, 0, MPI.INT, root);
            world.barrier();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void gatherAndScatterInEveryForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = size / 2;
            long[] mine = {rank * 10L, rank * 10L + 1};
            long[] all = new long[2 * size];
            world.gather(mine, 2, MPI.LONG, rank == root ? all : null, 2, MPI.LONG, root);
            if (rank == root) {
                assertThat(all).containsExactly(IntStream.range(0, 2 * size).mapToLong(i -> i / 2 * 10L + i % 2)
                        .toArray());
            }
            int[] inPlace = new int[size];
            inPlace[rank == root ? rank : 0] = 100 + rank;
            world.gather(inPlace, 1, MPI.INT, root);
            if (rank == root) {
                assertThat(inPlace).containsExactly(IntStream.range(0, size).map(r -> 100 + r).toArray());
            }
            int[] scattered = new int[2];
            int[] source = rank == root ? IntStream.range(0, 2 * size).toArray() : null;
            world.scatter(source, 2, MPI.INT, scattered, 2, MPI.INT, root);
            assertThat(scattered).containsExactly(2 * rank, 2 * rank + 1);
            int[] buf = rank == root ? IntStream.range(0, size).map(r -> -r).toArray() : new int[] {99};
            world.scatter(buf, 1, MPI.INT, root);
            assertThat(buf[rank == root ? root : 0]).isEqualTo(-rank);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void gathervAndScattervWithDisplacements(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = size - 1;
            int[] counts = IntStream.range(0, size).map(r -> r + 1).toArray();
            int[] displs = new int[size];
            for (int r = 1; r < size; r++) {
                displs[r] = displs[r - 1] + counts[r - 1] + 1; // a gap of one element after each block
            }
            int extent = displs[size - 1] + counts[size - 1];
            short[] mine = new short[rank + 1];
            Arrays.fill(mine, (short) (rank + 1));
            short[] all = new short[extent];
            Arrays.fill(all, (short) -1);
            world.gatherv(mine, rank + 1, MPI.SHORT, all, counts, displs, MPI.SHORT, root);
            if (rank == root) {
                assertThat(all).containsExactly(expectedBlocks(counts, displs, extent));
            }
            // the root's in-place form, and the others' form without receive arguments
            short[] again = rank == root ? new short[extent] : mine;
            if (rank == root) {
                Arrays.fill(again, (short) -1);
                Arrays.fill(again, displs[root], displs[root] + counts[root], (short) (root + 1));
                world.gatherv(again, counts, displs, MPI.SHORT, root);
                assertThat(again).containsExactly(expectedBlocks(counts, displs, extent));
            } else {
                world.gatherv(mine, rank + 1, MPI.SHORT, root);
            }
            short[] source = rank == root ? expectedBlocks(counts, displs, extent) : null;
            short[] part = new short[rank + 1];
            world.scatterv(source, counts, displs, MPI.SHORT, part, rank + 1, MPI.SHORT, root);
            assertThat(part).containsOnly((short) (rank + 1));
            short[] part2 = new short[rank + 1];
            if (rank == root) {
                world.scatterv(source, counts, displs, MPI.SHORT, root);
            } else {
                world.scatterv(part2, rank + 1, MPI.SHORT, root);
                assertThat(part2).containsOnly((short) (rank + 1));
            }
            MPI.Finalize();
        });
    }

    /** Block r holds r + 1, the gaps -1. */
    private static short[] expectedBlocks(int[] counts, int[] displs, int extent) {
        short[] out = new short[extent];
        Arrays.fill(out, (short) -1);
        for (int r = 0; r < counts.length; r++) {
            Arrays.fill(out, displs[r], displs[r] + counts[r], (short) (r + 1));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void allGatherAndAllToAllInEveryForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            float[] all = new float[size];
            world.allGather(new float[] {rank + 0.5f}, 1, MPI.FLOAT, all, 1, MPI.FLOAT);
            for (int r = 0; r < size; r++) {
                assertThat(all[r]).isEqualTo(r + 0.5f);
            }
            IntBuffer inPlace = MPI.newIntBuffer(2 * size);
            inPlace.put(2 * rank, rank).put(2 * rank + 1, -rank);
            world.allGather(inPlace, 2, MPI.INT);
            for (int r = 0; r < size; r++) {
                assertThat(inPlace.get(2 * r)).isEqualTo(r);
                assertThat(inPlace.get(2 * r + 1)).isEqualTo(-r);
            }
            int[] counts = IntStream.range(0, size).map(r -> size - r).toArray();
            int[] displs = IntStream.range(0, size).map(r -> 3 * r * size).toArray();
            byte[] gathered = new byte[3 * size * size];
            byte[] mine = new byte[size - rank];
            Arrays.fill(mine, (byte) (rank + 1));
            world.allGatherv(mine, size - rank, MPI.BYTE, gathered, counts, displs, MPI.BYTE);
            byte[] vInPlace = new byte[3 * size * size];
            Arrays.fill(vInPlace, displs[rank], displs[rank] + counts[rank], (byte) (rank + 1));
            world.allGatherv(vInPlace, counts, displs, MPI.BYTE);
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < counts[r]; i++) {
                    assertThat(gathered[displs[r] + i]).isEqualTo((byte) (r + 1));
                    assertThat(vInPlace[displs[r] + i]).isEqualTo((byte) (r + 1));
                }
            }
            int[] send = IntStream.range(0, size).map(r -> rank * 100 + r).toArray();
            int[] recv = new int[size];
            world.allToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
            assertThat(recv).containsExactly(IntStream.range(0, size).map(r -> r * 100 + rank).toArray());
            // allToAllv: rank r sends r + 1 copies of (r * 10 + dest) to each dest, blocks in reverse order
            int[] sc = new int[size];
            int[] sd = new int[size];
            int[] rc = new int[size];
            int[] rd = new int[size];
            int at = 0;
            for (int d = size - 1; d >= 0; d--) {
                sc[d] = rank + 1;
                sd[d] = at;
                at += rank + 1;
            }
            int[] vs = new int[at];
            for (int d = 0; d < size; d++) {
                Arrays.fill(vs, sd[d], sd[d] + sc[d], rank * 10 + d);
            }
            int rat = 0;
            for (int s = 0; s < size; s++) {
                rc[s] = s + 1;
                rd[s] = rat;
                rat += s + 1;
            }
            int[] vr = new int[rat];
            world.allToAllv(vs, sc, sd, MPI.INT, vr, rc, rd, MPI.INT);
            for (int s = 0; s < size; s++) {
                for (int i = 0; i < rc[s]; i++) {
                    assertThat(vr[rd[s] + i]).isEqualTo(s * 10 + rank);
                }
            }
            MPI.Finalize();
        });
    }
}
