package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one complex number of {@code MPI.DOUBLE_COMPLEX} data: two doubles, the real part then the imaginary part,
 * at item {@code index} of a double buffer or array (elements {@code 2 * index} and {@code 2 * index + 1}, counted from
 * element 0 whatever the buffer's position, as MPI counts them). Reads and writes go to the buffer.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = Math.multiplyExact(index, 2);
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /** A view of a byte buffer's doubles, in the buffer's byte order, from its byte 0. */
    public static DoubleComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.duplicate().order(buffer.order()).clear().asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(offset);
    }

    public double getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(double real) {
        buffer.put(offset, real);
    }

    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer from this number on (element 0 is its real part); the buffer itself for item 0. */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.duplicate().clear().position(offset).slice();
    }
}
