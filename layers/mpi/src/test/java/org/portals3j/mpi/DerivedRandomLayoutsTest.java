package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import mpi.Datatype;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.Test;

/**
 * Random vector, hvector, indexed, hindexed, struct, resized and nested layouts of ints: rank 0 sends with a random
 * type A, rank 1 receives with a random type B of the same signature (the same number of ints in all), and every
 * int of the receive buffer is checked against a model: the k-th int of B's type map holds the k-th int of A's,
 * every other int keeps its old value. Both ranks draw the same layouts from one seed; some messages are above the
 * eager limit, and every third pair goes by the nonblocking calls on direct buffers.
 */
class DerivedRandomLayoutsTest {
    private static final int ROUNDS = 60;
    private static final int SENTINEL = -7;

    /** A datatype and the model of its type map: the int index of each int of an item, and its extent in ints. */
    private record Layout(Datatype type, int[] positions, int extent, boolean bytes) {
        /** The int indices {@code count} items cover, in order. */
        int[] map(int count) {
            int[] all = new int[count * positions.length];
            for (int k = 0; k < count; k++) {
                for (int i = 0; i < positions.length; i++) {
                    all[k * positions.length + i] = k * extent + positions[i];
                }
            }
            return all;
        }

        int length(int count) {
            int max = 0;
            for (int p : map(count)) {
                max = Math.max(max, p + 1);
            }
            return max;
        }
    }

    @Test
    void sendWithOneLayoutReceiveWithAnother() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Random random = new Random(20261129);
            for (int round = 0; round < ROUNDS; round++) {
                int scale = round % 5 == 4 ? 800 : 1;
                Layout a = layout(random, 1 + random.nextInt(6) * scale);
                int countA = 1 + random.nextInt(3);
                int total = countA * a.positions().length;
                int countB = divisor(random, total);
                Layout b = layout(random, total / countB);
                boolean nonblocking = round % 3 == 2;
                if (rank == 0) {
                    int[] data = new int[a.length(countA)];
                    for (int i = 0; i < data.length; i++) {
                        data[i] = round * 1_000_000 + i;
                    }
                    send(a, data, countA, nonblocking, round);
                } else {
                    int[] got = receive(b, countB, nonblocking, round);
                    int[] expected = new int[got.length];
                    Arrays.fill(expected, SENTINEL);
                    int[] from = a.map(countA);
                    int[] to = b.map(countB);
                    for (int k = 0; k < total; k++) {
                        expected[to[k]] = round * 1_000_000 + from[k];
                    }
                    assertThat(got).as("round %d: %s x%d -> %s x%d", round, a, countA, b, countB)
                            .containsExactly(expected);
                }
            }
            MPI.Finalize();
        });
    }

    private static void send(Layout a, int[] data, int count, boolean nonblocking, int tag) throws Exception {
        if (a.bytes()) {
            ByteBuffer b = (nonblocking ? ByteBuffer.allocateDirect(4 * data.length)
                    : ByteBuffer.allocate(4 * data.length)).order(ByteOrder.nativeOrder());
            b.asIntBuffer().put(data);
            if (nonblocking) {
                MPI.COMM_WORLD.iSend(b, count, a.type(), 1, tag).waitFor();
            } else {
                MPI.COMM_WORLD.send(b.array(), count, a.type(), 1, tag);
            }
        } else if (nonblocking) {
            MPI.COMM_WORLD.iSend(MPI.newIntBuffer(data.length).put(data), count, a.type(), 1, tag).waitFor();
        } else {
            MPI.COMM_WORLD.send(data, count, a.type(), 1, tag);
        }
    }

    private static int[] receive(Layout b, int count, boolean nonblocking, int tag) throws Exception {
        int[] got = new int[b.length(count) + 2];
        Arrays.fill(got, SENTINEL);
        if (b.bytes()) {
            ByteBuffer buf = (nonblocking ? ByteBuffer.allocateDirect(4 * got.length)
                    : ByteBuffer.allocate(4 * got.length)).order(ByteOrder.nativeOrder());
            buf.asIntBuffer().put(got);
            if (nonblocking) {
                Request r = MPI.COMM_WORLD.iRecv(buf, count, b.type(), 0, tag);
                r.waitFor();
            } else {
                MPI.COMM_WORLD.recv(buf.array(), count, b.type(), 0, tag);
            }
            buf.asIntBuffer().get(got);
        } else if (nonblocking) {
            var buf = MPI.newIntBuffer(got.length).put(got);
            MPI.COMM_WORLD.iRecv(buf, count, b.type(), 0, tag).waitFor();
            buf.get(0, got);
        } else {
            MPI.COMM_WORLD.recv(got, count, b.type(), 0, tag);
        }
        return got;
    }

    private static int divisor(Random random, int n) {
        List<Integer> ds = new ArrayList<>();
        for (int d = 1; d <= Math.min(n, 4); d++) {
            if (n % d == 0) {
                ds.add(d);
            }
        }
        return ds.get(random.nextInt(ds.size()));
    }

    /** A random committed layout of exactly {@code m} ints per item. */
    private static Layout layout(Random random, int m) throws Exception {
        Layout l = switch (random.nextInt(7)) {
            case 0 -> vector(random, m, false);
            case 1 -> vector(random, m, true);
            case 2 -> indexed(random, m, 0);
            case 3 -> indexed(random, m, 1);
            case 4 -> indexed(random, m, 2);
            case 5 -> resized(random, vector(random, m, false));
            default -> nested(random, m);
        };
        l.type().commit();
        return l;
    }

    private static Layout vector(Random random, int m, boolean inBytes) throws Exception {
        List<Integer> ds = new ArrayList<>();
        for (int d = 1; d <= m; d++) {
            if (m % d == 0) {
                ds.add(d);
            }
        }
        int block = ds.get(random.nextInt(ds.size()));
        int count = m / block;
        int stride = block + random.nextInt(4);
        Datatype t = inBytes ? Datatype.createHVector(count, block, 4 * stride, MPI.INT)
                : Datatype.createVector(count, block, stride, MPI.INT);
        int[] pos = new int[m];
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < block; j++) {
                pos[i * block + j] = i * stride + j;
            }
        }
        return new Layout(t, pos, (count - 1) * stride + block, false);
    }

    /** Blocks in shuffled order with gaps: kind 0 indexed, 1 hindexed, 2 a struct of ints (a byte buffer). */
    private static Layout indexed(Random random, int m, int kind) throws Exception {
        List<int[]> blocks = new ArrayList<>(); // {start, length}
        int at = random.nextInt(3);
        for (int left = m; left > 0; ) {
            int len = 1 + random.nextInt(Math.min(left, 4));
            blocks.add(new int[] {at, len});
            at += len + random.nextInt(3);
            left -= len;
        }
        Collections.shuffle(blocks, random);
        int[] lengths = new int[blocks.size()];
        int[] displs = new int[blocks.size()];
        int[] pos = new int[m];
        int k = 0;
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        for (int i = 0; i < blocks.size(); i++) {
            lengths[i] = blocks.get(i)[1];
            displs[i] = kind == 0 ? blocks.get(i)[0] : 4 * blocks.get(i)[0];
            lo = Math.min(lo, blocks.get(i)[0]);
            hi = Math.max(hi, blocks.get(i)[0] + lengths[i]);
            for (int j = 0; j < lengths[i]; j++) {
                pos[k++] = blocks.get(i)[0] + j;
            }
        }
        Datatype t;
        if (kind == 2) {
            Datatype[] ints = new Datatype[blocks.size()];
            Arrays.fill(ints, MPI.INT);
            t = Datatype.createStruct(lengths, displs, ints);
        } else {
            t = kind == 0 ? Datatype.createIndexed(lengths, displs, MPI.INT)
                    : Datatype.createHIndexed(lengths, displs, MPI.INT);
        }
        // the lower bound is the lowest block's start: an item's extent is hi - lo
        return new Layout(t, pos, hi - lo, kind == 2);
    }

    private static Layout resized(Random random, Layout inner) throws Exception {
        int extent = inner.extent() + random.nextInt(3);
        return new Layout(Datatype.createResized(inner.type(), 0, 4 * extent), inner.positions(), extent, false);
    }

    /** A contiguous run of a vector of {@code m / k} ints. */
    private static Layout nested(Random random, int m) throws Exception {
        int k = m % 2 == 0 ? 2 : 1;
        Layout inner = vector(random, m / k, false);
        int[] pos = new int[m];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < inner.positions().length; i++) {
                pos[c * inner.positions().length + i] = c * inner.extent() + inner.positions()[i];
            }
        }
        return new Layout(Datatype.createContiguous(k, inner.type()), pos, k * inner.extent(), false);
    }
}
