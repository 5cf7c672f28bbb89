package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.portals3j.mpi.internal.BaseType;

/**
 * The function of a user-defined {@link Op} (mpi-java-api.md section 1.5): override one of the two {@code call}
 * methods to combine {@code inVec} into {@code inOutVec} ({@code inOutVec[i] = inVec[i] op inOutVec[i]}).
 */
public abstract class UserFunction {
    /**
     * The array form: {@code inVec} and {@code inOutVec} are arrays of the datatype's base type ({@code int[]} for
     * {@code MPI.INT}) of {@code count} times its extent elements ({@code 2 * count} floats for
     * {@code MPI.FLOAT_COMPLEX}). Not overriding it, nor the buffer form, is an
     * {@code UnsupportedOperationException} when the operation is used.
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("override one of UserFunction's call methods");
    }

    /**
     * The buffer form: direct byte buffers in native order holding {@code count} elements. By default it copies
     * them into arrays of the base type, calls the array form, and copies {@code inOutVec} back.
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        BaseType base = datatype.base();
        if (base == null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "DATATYPE_NULL carries no data");
        }
        int elements = Math.multiplyExact(count, datatype.span());
        Object a = toArray(in.duplicate().order(ByteOrder.nativeOrder()).clear(), base, elements);
        Object b = toArray(inOut.duplicate().order(ByteOrder.nativeOrder()).clear(), base, elements);
        call(a, b, count, datatype);
        ByteBuffer out = inOut.duplicate().order(ByteOrder.nativeOrder()).clear();
        switch (b) {
            case byte[] v -> out.put(v);
            case char[] v -> out.asCharBuffer().put(v);
            case short[] v -> out.asShortBuffer().put(v);
            case int[] v -> out.asIntBuffer().put(v);
            case long[] v -> out.asLongBuffer().put(v);
            case float[] v -> out.asFloatBuffer().put(v);
            case double[] v -> out.asDoubleBuffer().put(v);
            default -> throw new IllegalStateException("no array of " + base);
        }
    }

    private static Object toArray(ByteBuffer from, BaseType base, int count) {
        return switch (base) {
            case BYTE, BOOLEAN -> {
                byte[] v = new byte[count];
                from.get(v);
                yield v;
            }
            case CHAR -> {
                char[] v = new char[count];
                from.asCharBuffer().get(v);
                yield v;
            }
            case SHORT -> {
                short[] v = new short[count];
                from.asShortBuffer().get(v);
                yield v;
            }
            case INT -> {
                int[] v = new int[count];
                from.asIntBuffer().get(v);
                yield v;
            }
            case LONG -> {
                long[] v = new long[count];
                from.asLongBuffer().get(v);
                yield v;
            }
            case FLOAT -> {
                float[] v = new float[count];
                from.asFloatBuffer().get(v);
                yield v;
            }
            case DOUBLE -> {
                double[] v = new double[count];
                from.asDoubleBuffer().get(v);
                yield v;
            }
        };
    }
}
