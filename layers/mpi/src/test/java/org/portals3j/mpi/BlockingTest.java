package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** send, recv, sSend, rSend, sendRecv, sendRecvReplace: every datatype and buffer form, PROC_NULL, wildcards. */
class BlockingTest {

    @Test
    void everyBasicTypeTravelsInItsArray() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new byte[] {1, -2, 3}, 3, MPI.BYTE, 1, 0);
                MPI.COMM_WORLD.send(new char[] {'h', 'é'}, 2, MPI.CHAR, 1, 1);
                MPI.COMM_WORLD.send(new short[] {-5, 300}, 2, MPI.SHORT, 1, 2);
                MPI.COMM_WORLD.send(new boolean[] {true, false, true}, 3, MPI.BOOLEAN, 1, 3);
                MPI.COMM_WORLD.send(new long[] {Long.MIN_VALUE, 7}, 2, MPI.LONG, 1, 4);
                MPI.COMM_WORLD.send(new float[] {1.5f}, 1, MPI.FLOAT, 1, 5);
                MPI.COMM_WORLD.send(new double[] {Math.PI, -0.0}, 2, MPI.DOUBLE, 1, 6);
                MPI.COMM_WORLD.send(new byte[] {9, 8}, 2, MPI.PACKED, 1, 7);
            } else {
                byte[] b = new byte[3];
                MPI.COMM_WORLD.recv(b, 3, MPI.BYTE, 0, 0);
                assertThat(b).containsExactly(1, -2, 3);
                char[] c = new char[2];
                MPI.COMM_WORLD.recv(c, 2, MPI.CHAR, 0, 1);
                assertThat(c).containsExactly('h', 'é');
                short[] s = new short[2];
                MPI.COMM_WORLD.recv(s, 2, MPI.SHORT, 0, 2);
                assertThat(s).containsExactly((short) -5, (short) 300);
                boolean[] z = new boolean[4];
                Status st = MPI.COMM_WORLD.recv(z, 4, MPI.BOOLEAN, 0, 3);
                assertThat(z).containsExactly(true, false, true, false);
                assertThat(st.getCount(MPI.BOOLEAN)).isEqualTo(3);
                long[] l = new long[2];
                MPI.COMM_WORLD.recv(l, 2, MPI.LONG, 0, 4);
                assertThat(l).containsExactly(Long.MIN_VALUE, 7);
                float[] f = new float[1];
                MPI.COMM_WORLD.recv(f, 1, MPI.FLOAT, 0, 5);
                assertThat(f).containsExactly(1.5f);
                double[] d = new double[2];
                MPI.COMM_WORLD.recv(d, 2, MPI.DOUBLE, 0, 6);
                assertThat(d).containsExactly(Math.PI, -0.0);
                byte[] p = new byte[2];
                MPI.COMM_WORLD.recv(p, 2, MPI.PACKED, 0, 7);
                assertThat(p).containsExactly(9, 8);
            }
            MPI.Finalize();
        });
    }

    @Test
    void buffersStartAtElementZeroWhateverTheirPositionAndSlicesOffsetThem() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                IntBuffer direct = MPI.newIntBuffer(4);
                direct.put(11).put(12).put(13).put(14); // position 4: still sent from element 0
                MPI.COMM_WORLD.send(direct, 4, MPI.INT, 1, 0);
                int[] a = {0, 1, 2, 3, 4, 5, 6};
                MPI.COMM_WORLD.send(IntBuffer.wrap(a, 5, 2), 2, MPI.INT, 1, 1); // from a[0], as Open MPI
                MPI.COMM_WORLD.send(MPI.slice(a, 5), 2, MPI.INT, 1, 2);
                ByteBuffer bytes = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
                bytes.asDoubleBuffer().put(0, 2.5).put(1, -1);
                MPI.COMM_WORLD.send(bytes.asDoubleBuffer(), 2, MPI.DOUBLE, 1, 3);
            } else {
                int[] got = new int[4];
                MPI.COMM_WORLD.recv(got, 4, MPI.INT, 0, 0);
                assertThat(got).containsExactly(11, 12, 13, 14);
                int[] into = new int[6];
                MPI.COMM_WORLD.recv(MPI.slice(into, 3), 2, MPI.INT, 0, 1);
                assertThat(into).containsExactly(0, 0, 0, 0, 1, 0);
                IntBuffer heap = IntBuffer.allocate(2);
                heap.position(1);
                MPI.COMM_WORLD.recv(heap, 2, MPI.INT, 0, 2);
                assertThat(heap.array()).containsExactly(5, 6);
                DoubleBuffer d = MPI.newDoubleBuffer(2);
                MPI.COMM_WORLD.recv(d, 2, MPI.DOUBLE, 0, 3);
                assertThat(d.get(0)).isEqualTo(2.5);
                assertThat(d.get(1)).isEqualTo(-1.0);
            }
            MPI.Finalize();
        });
    }

    @Test
    void synchronousReadyAndWildcardReceivesReportTheRealSourceAndTag() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                int[] sum = new int[1];
                boolean[] seen = new boolean[3];
                for (int i = 0; i < 2; i++) {
                    int[] v = new int[1];
                    Status s = MPI.COMM_WORLD.recv(v, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    assertThat(s.getTag()).isEqualTo(100 + s.getSource());
                    assertThat(v[0]).isEqualTo(s.getSource() * 10);
                    seen[s.getSource()] = true;
                    sum[0] += v[0];
                }
                assertThat(seen).containsExactly(false, true, true);
                // a ready send needs its receive posted first: post it, then tell rank 2
                IntBuffer r = MPI.newIntBuffer(1);
                Request ready = MPI.COMM_WORLD.iRecv(r, 1, MPI.INT, 2, MPI.ANY_TAG);
                MPI.COMM_WORLD.send(new int[0], 0, MPI.INT, 2, 6);
                assertThat(ready.waitStatus().getTag()).isEqualTo(5);
                assertThat(r.get(0)).isEqualTo(77);
            } else if (rank == 1) {
                MPI.COMM_WORLD.sSend(new int[] {10}, 1, MPI.INT, 0, 101);
            } else {
                MPI.COMM_WORLD.send(new int[] {20}, 1, MPI.INT, 0, 102);
                MPI.COMM_WORLD.recv(new int[0], 0, MPI.INT, 0, 6);
                MPI.COMM_WORLD.rSend(new int[] {77}, 1, MPI.INT, 0, 5);
            }
            MPI.Finalize();
        });
    }

    @Test
    void sendRecvExchangesBothWaysAndSendRecvReplaceKeepsItsBufferIntact() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            int other = 1 - rank;
            for (int n : new int[] {3, 50_000}) {
                double[] out = new double[n];
                double[] in = new double[n];
                for (int i = 0; i < n; i++) {
                    out[i] = rank * 1000 + i;
                }
                Status s = MPI.COMM_WORLD.sendRecv(out, n, MPI.DOUBLE, other, 1, in, n, MPI.DOUBLE, other, 1);
                assertThat(s.getSource()).isEqualTo(other);
                assertThat(in[n - 1]).isEqualTo(other * 1000 + n - 1);
                long[] both = new long[n];
                for (int i = 0; i < n; i++) {
                    both[i] = rank * 10L + i;
                }
                MPI.COMM_WORLD.sendRecvReplace(both, n, MPI.LONG, other, 2, other, 2);
                assertThat(both[0]).isEqualTo(other * 10L);
                assertThat(both[n - 1]).isEqualTo(other * 10L + n - 1);
            }
            MPI.Finalize();
        });
    }

    @Test
    void procNullCompletesAtOnceWithAnEmptyStatus() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            Status s = MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            assertThat(s.getSource()).isEqualTo(MPI.PROC_NULL);
            assertThat(s.getTag()).isEqualTo(MPI.ANY_TAG);
            assertThat(s.getCount(MPI.INT)).isZero();
            Status p = MPI.COMM_WORLD.iProbe(MPI.PROC_NULL, 3);
            assertThat(p).isNotNull();
            assertThat(MpiJob.present(p).getSource()).isEqualTo(MPI.PROC_NULL);
            MPI.Finalize();
        });
    }

    @Test
    void aRankSendsToItselfThroughCommSelfAndWorld() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_SELF.send(new int[] {rank + 40}, 1, MPI.INT, 0, 9);
            int[] v = new int[1];
            Status s = MPI.COMM_SELF.recv(v, 1, MPI.INT, 0, 9);
            assertThat(v[0]).isEqualTo(rank + 40);
            assertThat(s.getSource()).isZero();
            MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, rank, 9);
            MPI.COMM_WORLD.recv(v, 1, MPI.INT, rank, 9);
            assertThat(v[0]).isEqualTo(rank);
            MPI.Finalize();
        });
    }
}
