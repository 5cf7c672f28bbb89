package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Derived datatypes in point-to-point calls: a strided column sent and received against a contiguous type (and the
 * other way), eager and rendezvous sizes, on inmem and udp; nonblocking sends (gathered when posted) and receives
 * (scattered at completion) on direct buffers; {@code sendRecv} and {@code sendRecvReplace}; probe counts and
 * elements; truncation; struct and boolean layouts.
 */
class DerivedPointToPointTest {

    @ParameterizedTest
    @ValueSource(strings = {"inmem", "udp"})
    void columnAgainstContiguous(String transport) throws Exception {
        MpiJob.run(transport, 2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype column = Datatype.createVector(3, 1, 4, MPI.INT);
            column.commit();
            int[] matrix = new int[12];
            for (int i = 0; i < matrix.length; i++) {
                matrix[i] = 100 * rank + i;
            }
            if (rank == 0) {
                world.send(matrix, 1, column, 1, 1);
                Status s = world.recv(matrix, 1, column, 1, 2);
                assertThat(s.getCount(column)).isEqualTo(1);
                assertThat(s.getElements(column)).isEqualTo(3);
                assertThat(s.getCount(MPI.INT)).isEqualTo(3);
                assertThat(matrix).containsExactly(-1, 1, 2, 3, -2, 5, 6, 7, -3, 9, 10, 11);
            } else {
                int[] got = new int[3];
                world.recv(got, 3, MPI.INT, 0, 1);
                assertThat(got).containsExactly(0, 4, 8);
                world.send(new int[] {-1, -2, -3}, 3, MPI.INT, 0, 2);
            }
            MPI.Finalize();
        });
    }

    @Test
    void rendezvousSizedStridedMessage() throws Exception {
        int n = 5000; // 40000 bytes of data: above the eager limit
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Datatype everyOther = Datatype.createVector(n, 1, 2, MPI.DOUBLE);
            everyOther.commit();
            double[] data = new double[2 * n];
            if (rank == 0) {
                for (int i = 0; i < data.length; i++) {
                    data[i] = i;
                }
                MPI.COMM_WORLD.sSend(data, 1, everyOther, 1, 0);
            } else {
                Arrays.fill(data, -1);
                Status s = MPI.COMM_WORLD.recv(MPI.slice(data, 1), 1, everyOther, 0, 0);
                assertThat(s.getElements(everyOther)).isEqualTo(n);
                for (int i = 0; i < data.length; i++) {
                    assertThat(data[i]).as("element %d", i).isEqualTo(i % 2 == 0 ? -1 : i - 1);
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void nonblockingGathersAtPostAndScattersAtCompletion() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Datatype pairs = Datatype.createVector(4, 2, 3, MPI.DOUBLE);
            pairs.commit();
            DoubleBuffer buf = MPI.newDoubleBuffer(12);
            if (rank == 0) {
                for (int i = 0; i < 12; i++) {
                    buf.put(i, i);
                }
                Request r = MPI.COMM_WORLD.iSend(buf, 1, pairs, 1, 3);
                buf.put(0, 99); // the data was gathered when the send was posted (the package's choice)
                r.waitFor();
            } else {
                for (int i = 0; i < 12; i++) {
                    buf.put(i, -1);
                }
                Request r = MPI.COMM_WORLD.iRecv(buf, 1, pairs, 0, 3);
                Status s = r.waitStatus();
                assertThat(s.getElements(pairs)).isEqualTo(8);
                double[] got = new double[12];
                buf.get(0, got);
                assertThat(got).containsExactly(0, 1, -1, 3, 4, -1, 6, 7, -1, 9, 10, -1);
            }
            MPI.Finalize();
        });
    }

    @Test
    void sendRecvAndReplaceWithAVector() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            int other = 1 - rank;
            Datatype odd = Datatype.createVector(3, 1, 2, MPI.INT);
            odd.commit();
            int[] mine = {10 * rank, 10 * rank + 1, 10 * rank + 2, 10 * rank + 3, 10 * rank + 4};
            int[] got = new int[3];
            MPI.COMM_WORLD.sendRecv(mine, 1, odd, other, 0, got, 3, MPI.INT, other, 0);
            assertThat(got).containsExactly(10 * other, 10 * other + 2, 10 * other + 4);
            MPI.COMM_WORLD.sendRecvReplace(mine, 1, odd, other, 1, other, 1);
            assertThat(mine).containsExactly(10 * other, 10 * rank + 1, 10 * other + 2, 10 * rank + 3,
                    10 * other + 4);
            MPI.Finalize();
        });
    }

    @Test
    void probeCountsTruncationAndPartialItems() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Datatype two = Datatype.createVector(2, 1, 2, MPI.INT);
            two.commit();
            if (rank == 0) {
                world.send(new int[] {1, 2, 3, 4, 5}, 5, MPI.INT, 1, 0);
                world.send(new int[] {6, 7, 8}, 3, MPI.INT, 1, 1);
            } else {
                Status p = world.probe(0, 0);
                assertThat(p.getCount(two)).isEqualTo(MPI.UNDEFINED);
                assertThat(p.getElements(two)).isEqualTo(5);
                int[] into = new int[9];
                Status s = world.recv(into, 3, two, 0, 0);
                assertThat(s.getElements(two)).isEqualTo(5);
                assertThat(into).containsExactly(1, 0, 2, 3, 0, 4, 5, 0, 0);
                int[] small = new int[3];
                assertThat(MpiErrors.errorClassOf(() -> world.recv(small, 1, two, 0, 1)))
                        .isEqualTo(MPI.ERR_TRUNCATE);
                assertThat(small).as("the first item delivered").containsExactly(6, 0, 7);
            }
            MPI.Finalize();
        });
    }

    @Test
    void structOnAByteBufferAndBooleanVector() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Datatype record = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                    new Datatype[] {MPI.INT, MPI.DOUBLE});
            record.commit();
            Datatype flags = Datatype.createVector(2, 1, 3, MPI.BOOLEAN);
            flags.commit();
            if (rank == 0) {
                ByteBuffer b = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
                b.putInt(0, 7).putDouble(8, 1.5).putInt(16, 8).putDouble(24, -2.5);
                MPI.COMM_WORLD.send(b, 2, record, 1, 0);
                MPI.COMM_WORLD.send(new boolean[] {true, false, false, true}, 1, flags, 1, 1);
            } else {
                byte[] packed = new byte[24];
                Status s = MPI.COMM_WORLD.recv(packed, 24, MPI.BYTE, 0, 0);
                assertThat(s.getCount(record)).isEqualTo(2);
                assertThat(s.getElements(record)).isEqualTo(4);
                ByteBuffer p = ByteBuffer.wrap(packed).order(ByteOrder.nativeOrder());
                assertThat(p.getInt(0)).isEqualTo(7);
                assertThat(p.getDouble(4)).isEqualTo(1.5);
                assertThat(p.getInt(12)).isEqualTo(8);
                assertThat(p.getDouble(16)).isEqualTo(-2.5);
                boolean[] got = {false, true, true, false};
                MPI.COMM_WORLD.recv(got, 1, flags, 0, 1);
                assertThat(got).containsExactly(true, true, true, true);
            }
            MPI.Finalize();
        });
    }
}
