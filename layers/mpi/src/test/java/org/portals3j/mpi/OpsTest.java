package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import org.checkerframework.checker.nullness.qual.NonNull;
import org.junit.jupiter.api.Test;

/**
 * The predefined operations on every basic type through {@code Comm.reduceLocal} and {@code allReduce}: values,
 * the unsigned comparison of BYTE and CHAR, ERR_OP on every type an operation does not apply to; user-defined
 * operations in both forms of {@link UserFunction}.
 */
class OpsTest {
    private static final List<Datatype> TYPES = List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT,
            MPI.LONG, MPI.FLOAT, MPI.DOUBLE);

    /** The operations and the types they apply to. */
    private static final Map<Op, List<Datatype>> APPLIES = Map.of(
            MPI.MAX, numeric(), MPI.MIN, numeric(), MPI.SUM, numeric(), MPI.PROD, numeric(),
            MPI.LAND, List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.BOOLEAN),
            MPI.LOR, List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.BOOLEAN),
            MPI.LXOR, List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.BOOLEAN),
            MPI.BAND, integers(), MPI.BOR, integers(), MPI.BXOR, integers());

    private static List<Datatype> integers() {
        return List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG);
    }

    private static List<Datatype> numeric() {
        return List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE);
    }

    @Test
    void everyPredefinedOperationOnEveryTypeItAppliesToAndErrOpOnTheOthers() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            for (Map.Entry<Op, List<Datatype>> e : APPLIES.entrySet()) {
                assertThat(e.getKey().isNull()).isFalse();
                assertThat(e.getKey().isCommutative()).isTrue();
                for (Datatype t : TYPES) {
                    if (!e.getValue().contains(t)) {
                        assertThat(MpiErrors.errorClassOf(() -> Comm.reduceLocal(buffer(t, 1), buffer(t, 1), 1, t,
                                e.getKey()))).as(e.getKey() + " on " + t.getName()).isEqualTo(MPI.ERR_OP);
                    }
                }
            }
            for (Op unusable : List.of(MPI.REPLACE, MPI.NO_OP)) {
                assertThat(MpiErrors.errorClassOf(() -> Comm.reduceLocal(new int[1], new int[1], 1, MPI.INT,
                        unusable))).isEqualTo(MPI.ERR_OP);
            }
            // arithmetic, signed and unsigned
            assertThat(local(new int[] {3, -4, 7}, new int[] {5, -9, 7}, MPI.INT, MPI.MAX)).containsExactly(5, -4, 7);
            assertThat(local(new long[] {3, 1L << 40}, new long[] {-5, 2}, MPI.LONG, MPI.SUM))
                    .containsExactly(-2, (1L << 40) + 2);
            assertThat(local(new short[] {300, -2}, new short[] {300, 3}, MPI.SHORT, MPI.PROD))
                    .containsExactly((short) 24464, (short) -6);
            assertThat(local(new byte[] {-1, 1, 5}, new byte[] {1, -1, 6}, MPI.BYTE, MPI.MAX))
                    .containsExactly((byte) -1, (byte) -1, (byte) 6);
            assertThat(local(new byte[] {-1, 1}, new byte[] {1, -1}, MPI.BYTE, MPI.MIN))
                    .containsExactly((byte) 1, (byte) 1);
            assertThat(local(new byte[] {(byte) 200}, new byte[] {(byte) 100}, MPI.BYTE, MPI.SUM))
                    .containsExactly((byte) 44);
            assertThat(local(new char[] {'\uffff', 'a'}, new char[] {1, 'b'}, MPI.CHAR, MPI.MAX))
                    .containsExactly('\uffff', 'b');
            assertThat(local(new char[] {'\uffff'}, new char[] {1}, MPI.CHAR, MPI.MIN)).containsExactly((char) 1);
            assertThat(local(new float[] {1.5f, -2f}, new float[] {0.25f, 3f}, MPI.FLOAT, MPI.SUM))
                    .containsExactly(1.75f, 1f);
            assertThat(local(new float[] {0.1f}, new float[] {0.2f}, MPI.FLOAT, MPI.SUM)).containsExactly(0.1f + 0.2f);
            assertThat(local(new double[] {1e300, -0.5}, new double[] {2.0, -0.25}, MPI.DOUBLE, MPI.MIN))
                    .containsExactly(2.0, -0.5);
            assertThat(local(new double[] {3}, new double[] {0.5}, MPI.DOUBLE, MPI.PROD)).containsExactly(1.5);
            // logical: non-zero is true, the result 1 or 0
            assertThat(local(new int[] {5, 0, 5, 0}, new int[] {-3, -3, 0, 0}, MPI.INT, MPI.LAND))
                    .containsExactly(1, 0, 0, 0);
            assertThat(local(new int[] {5, 0, 5, 0}, new int[] {-3, -3, 0, 0}, MPI.INT, MPI.LOR))
                    .containsExactly(1, 1, 1, 0);
            assertThat(local(new char[] {5, 0, 5, 0}, new char[] {3, 3, 0, 0}, MPI.CHAR, MPI.LXOR))
                    .containsExactly((char) 0, (char) 1, (char) 1, (char) 0);
            assertThat(local(new boolean[] {true, true, false}, new boolean[] {true, false, false}, MPI.BOOLEAN,
                    MPI.LAND)).containsExactly(true, false, false);
            assertThat(local(new boolean[] {true, true, false}, new boolean[] {true, false, false}, MPI.BOOLEAN,
                    MPI.LOR)).containsExactly(true, true, false);
            assertThat(local(new boolean[] {true, true, false}, new boolean[] {true, false, false}, MPI.BOOLEAN,
                    MPI.LXOR)).containsExactly(false, true, false);
            // bitwise
            assertThat(local(new byte[] {0x0F}, new byte[] {(byte) 0xF5}, MPI.BYTE, MPI.BAND))
                    .containsExactly((byte) 0x05);
            assertThat(local(new short[] {0x0F0}, new short[] {0x00F}, MPI.SHORT, MPI.BOR))
                    .containsExactly((short) 0x0FF);
            assertThat(local(new long[] {-1L}, new long[] {0x5555L}, MPI.LONG, MPI.BXOR)).containsExactly(~0x5555L);
            MPI.Finalize();
        });
    }

    @Test
    void predefinedOperationsOnEveryTypeAcrossThreeRanks() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            int[] max = {rank == 1 ? 9 : rank};
            MPI.COMM_WORLD.allReduce(max, 1, MPI.INT, MPI.MAX);
            assertThat(max[0]).isEqualTo(9);
            byte[] bytes = {(byte) (rank == 2 ? -1 : rank)};
            MPI.COMM_WORLD.allReduce(bytes, 1, MPI.BYTE, MPI.MAX);
            assertThat(bytes[0]).isEqualTo((byte) -1);
            char[] chars = {(char) ('a' + rank)};
            MPI.COMM_WORLD.allReduce(chars, 1, MPI.CHAR, MPI.MIN);
            assertThat(chars[0]).isEqualTo('a');
            short[] shorts = {(short) (rank + 2)};
            MPI.COMM_WORLD.allReduce(shorts, 1, MPI.SHORT, MPI.PROD);
            assertThat(shorts[0]).isEqualTo((short) 24);
            long[] longs = {1L << (rank + 40)};
            MPI.COMM_WORLD.allReduce(longs, 1, MPI.LONG, MPI.BXOR);
            assertThat(longs[0]).isEqualTo(7L << 40);
            float[] floats = {rank * 0.5f};
            MPI.COMM_WORLD.allReduce(floats, 1, MPI.FLOAT, MPI.SUM);
            assertThat(floats[0]).isEqualTo(1.5f);
            double[] doubles = {-rank};
            MPI.COMM_WORLD.allReduce(doubles, 1, MPI.DOUBLE, MPI.MIN);
            assertThat(doubles[0]).isEqualTo(-2.0);
            boolean[] any = {rank == 2};
            MPI.COMM_WORLD.allReduce(any, 1, MPI.BOOLEAN, MPI.LOR);
            assertThat(any[0]).isTrue();
            MPI.Finalize();
        });
    }

    /** Adds, overriding the buffer form. */
    static final class BufferSum extends UserFunction {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
            assertThat(in.isDirect()).isTrue();
            for (int i = 0; i < count; i++) {
                inOut.putInt(4 * i, in.getInt(4 * i) + inOut.getInt(4 * i));
            }
        }
    }

    /** Keeps the lower rank's value of booleans, overriding the array form. */
    static final class FirstBoolean extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
            System.arraycopy((boolean[]) inVec, 0, (boolean[]) inOutVec, 0, count);
        }
    }

    /** Overrides nothing. */
    static final class Nothing extends UserFunction {
    }

    @Test
    void userDefinedOperationsInBothFormsAndTheirLife() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            Op sum = new Op(new BufferSum(), true);
            int[] v = {rank + 1, 10 * (rank + 1)};
            MPI.COMM_WORLD.allReduce(v, 2, MPI.INT, sum);
            assertThat(v).containsExactly(3, 30);
            Op first = new Op(new FirstBoolean(), false);
            boolean[] b = {rank == 0, rank == 1};
            MPI.COMM_WORLD.allReduce(b, 2, MPI.BOOLEAN, first);
            assertThat(b).containsExactly(true, false);
            double[] d = {rank + 0.5};
            Comm.reduceLocal(new double[] {2}, d, 1, MPI.DOUBLE, new Op(new UserFunction() {
                @Override
                public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                    ((double[]) inOutVec)[0] *= ((double[]) inVec)[0];
                }
            }, true));
            assertThat(d[0]).isEqualTo(2 * rank + 1.0);
            Op nothing = new Op(new Nothing(), true);
            try {
                Comm.reduceLocal(new int[1], new int[1], 1, MPI.INT, nothing);
                throw new AssertionError("a function overriding nothing ran");
            } catch (UnsupportedOperationException expected) {
                // as documented
            }
            assertThat(MpiErrors.errorClassOf(MPI.SUM::free)).isEqualTo(MPI.ERR_OP);
            sum.free();
            assertThat(sum.isNull()).isTrue();
            assertThat(MpiErrors.errorClassOf(() -> MPI.COMM_WORLD.allReduce(v, 2, MPI.INT, sum)))
                    .isEqualTo(MPI.ERR_OP);
            MPI.Finalize();
        });
    }

    private static Object buffer(Datatype t, int n) {
        if (t == MPI.BYTE) {
            return new byte[n];
        } else if (t == MPI.CHAR) {
            return new char[n];
        } else if (t == MPI.SHORT) {
            return new short[n];
        } else if (t == MPI.BOOLEAN) {
            return new boolean[n];
        } else if (t == MPI.INT) {
            return new int[n];
        } else if (t == MPI.LONG) {
            return new long[n];
        } else if (t == MPI.FLOAT) {
            return new float[n];
        }
        return new double[n];
    }

    private static <T extends @NonNull Object> T local(T in, T inOut, Datatype type, Op op) throws MPIException {
        Comm.reduceLocal(in, inOut, Array.getLength(in), type, op);
        return inOut;
    }
}
