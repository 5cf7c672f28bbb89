package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import mpi.DoubleInt;
import mpi.FloatInt;
import mpi.Int2;
import mpi.Intracomm;
import mpi.LongInt;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShortInt;
import mpi.Status;
import mpi.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MINLOC and MAXLOC on the five pair types through their structs ({@code MPI.int2} ...) on 1 to 8 ranks, with
 * reduce and allReduce (in place too), ties to the smaller index, the extents, ERR_OP for other pairings, and a
 * user {@code Struct} sent and received through its type.
 */
class PairsTest {

    /** Rank r's value: neither end wins; ranks 0 and 2 tie, and on 8 ranks the minimum (3, 5) and maximum (1, 6). */
    static int valueOf(int r) {
        return new int[] {5, 9, 5, 1, 7, 1, 9, 3}[r];
    }

    /** {min, its first rank, max, its first rank} of the values of ranks 0..size-1. */
    static int[] extremes(int size) {
        int[] e = {Integer.MAX_VALUE, -1, Integer.MIN_VALUE, -1};
        for (int r = 0; r < size; r++) {
            if (valueOf(r) < e[0]) {
                e[0] = valueOf(r);
                e[1] = r;
            }
            if (valueOf(r) > e[2]) {
                e[2] = valueOf(r);
                e[3] = r;
            }
        }
        return e;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void minlocAndMaxlocOnEveryPairType(int size) throws Exception {
        int[] extremes = extremes(size);
        int min = extremes[0];
        int minAt = extremes[1];
        int max = extremes[2];
        int maxAt = extremes[3];
        int[] expected = {min, minAt, max, maxAt};
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int v = valueOf(rank);

            ByteBuffer in = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            for (int i = 0; i < 2; i++) {
                Int2.Data d = MPI.int2.getData(in, i);
                d.putValue(i == 0 ? v : -v);
                d.putIndex(rank);
            }
            ByteBuffer out = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            world.allReduce(in, out, 2, MPI.INT2, MPI.MINLOC);
            Int2.Data least = MPI.int2.getData(out, 0);
            Int2.Data mostNegated = MPI.int2.getData(out, 1);
            assertThat(new int[] {least.getValue(), least.getIndex(), -mostNegated.getValue(),
                mostNegated.getIndex()}).containsExactly(expected);

            byte[] shorts = new byte[MPI.shortInt.getExtent()];
            ShortInt.Data s = MPI.shortInt.getData(shorts);
            s.putValue((short) v);
            s.putIndex(rank);
            world.allReduce(shorts, 1, MPI.SHORT_INT, MPI.MAXLOC);
            assertThat(new int[] {s.getValue(), s.getIndex()}).containsExactly(max, maxAt);

            byte[] longs = new byte[MPI.longInt.getExtent()];
            LongInt.Data l = MPI.longInt.getData(longs);
            l.putValue(v * 1_000_000_000_000L);
            l.putIndex(rank);
            byte[] longResult = new byte[MPI.longInt.getExtent()];
            world.reduce(longs, longResult, 1, MPI.LONG_INT, MPI.MINLOC, 0);
            if (rank == 0) {
                LongInt.Data r = MPI.longInt.getData(longResult);
                assertThat(r.getValue()).isEqualTo(min * 1_000_000_000_000L);
                assertThat(r.getIndex()).isEqualTo(minAt);
            }

            ByteBuffer floats = MPI.newByteBuffer(MPI.floatInt.getExtent());
            FloatInt.Data f = MPI.floatInt.getData(floats);
            f.putValue(v + 0.5f);
            f.putIndex(rank);
            world.reduce(floats, 1, MPI.FLOAT_INT, MPI.MAXLOC, size - 1);
            if (rank == size - 1) {
                assertThat(f.getValue()).isEqualTo(max + 0.5f);
                assertThat(f.getIndex()).isEqualTo(maxAt);
            }

            byte[] doubles = new byte[MPI.doubleInt.getExtent()];
            DoubleInt.Data d = MPI.doubleInt.getData(doubles);
            d.putValue(-v / 4.0);
            d.putIndex(10 * rank);
            world.allReduce(doubles, 1, MPI.DOUBLE_INT, MPI.MAXLOC);
            assertThat(d.getValue()).isEqualTo(-min / 4.0);
            assertThat(d.getIndex()).as("ties keep the smaller index").isEqualTo(10 * minAt);
            MPI.Finalize();
        });
    }

    @Test
    void extentsTypesAndErrOp() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            assertThat(new int[] {MPI.INT2.getExtent(), MPI.SHORT_INT.getExtent(), MPI.LONG_INT.getExtent(),
                MPI.FLOAT_INT.getExtent(), MPI.DOUBLE_INT.getExtent()}).containsExactly(8, 8, 16, 8, 16);
            assertThat(new int[] {MPI.int2.getExtent(), MPI.shortInt.getExtent(), MPI.longInt.getExtent(),
                MPI.floatInt.getExtent(), MPI.doubleInt.getExtent()}).containsExactly(8, 8, 16, 8, 16);
            assertThat(MPI.int2.getType()).isSameAs(MPI.INT2);
            assertThat(MPI.doubleInt.getType()).isSameAs(MPI.DOUBLE_INT);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(new byte[8], 1, MPI.INT2, MPI.SUM)))
                    .isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(new int[1], 1, MPI.INT, MPI.MINLOC)))
                    .isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(new int[2], 1, MPI.INT2, MPI.MAXLOC)))
                    .as("pair data travels in bytes").isEqualTo(MPI.ERR_TYPE);
            MPI.Finalize();
        });
    }

    /** A user struct: an int, a gap, a double, and a nested pair. */
    static final class Sample extends Struct {
        final int count = addInt();
        final int mean = setOffset(8).addDouble();
        final int best = addStruct(MPI.int2);

        Sample() throws MPIException {
            // the fields' initialisers lay the struct out (addStruct declares MPIException)
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int getCount() {
                return getInt(count);
            }

            void putCount(int v) {
                putInt(count, v);
            }

            double getMean() {
                return getDouble(mean);
            }

            void putMean(double v) {
                putDouble(mean, v);
            }

            Int2.Data getBest() {
                return getData(MPI.int2, best);
            }
        }
    }

    @Test
    void aUserStructTravelsThroughItsType() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Sample sample = new Sample();
            assertThat(sample.getExtent()).as("int, gap, double, 2 ints: 24 bytes, aligned to 8").isEqualTo(24);
            ByteBuffer items = MPI.newByteBuffer(2 * sample.getExtent());
            if (rank == 0) {
                for (int i = 0; i < 2; i++) {
                    Sample.Data d = sample.getData(items, i);
                    d.putCount(10 + i);
                    d.putMean(0.5 + i);
                    d.getBest().putValue(-i);
                    d.getBest().putIndex(7);
                }
                world.send(items, 2, sample.getType(), 1, 3);
            } else {
                Status st = world.recv(items, 2, sample.getType(), 0, 3);
                assertThat(st.getCount(sample.getType())).isEqualTo(2);
                Sample.Data second = sample.getData(items, 1);
                assertThat(second.getCount()).isEqualTo(11);
                assertThat(second.getMean()).isEqualTo(1.5);
                assertThat(second.getBest().getValue()).isEqualTo(-1);
                assertThat(second.getBest().getIndex()).isEqualTo(7);
                assertThat(second.getBuffer().getInt(0)).as("the item's buffer starts at the item").isEqualTo(11);
            }
            world.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(items, 1, sample.getType(), MPI.MAX)))
                    .isEqualTo(MPI.ERR_OP);
            MPI.Finalize();
        });
    }
}
