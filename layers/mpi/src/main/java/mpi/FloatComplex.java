package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one complex number of {@code MPI.FLOAT_COMPLEX} data: two floats, the real part then the imaginary part,
 * at item {@code index} of a float buffer or array (elements {@code 2 * index} and {@code 2 * index + 1}, counted from
 * element 0 whatever the buffer's position, as MPI counts them). Reads and writes go to the buffer.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = Math.multiplyExact(index, 2);
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /** A view of a byte buffer's floats, in the buffer's byte order, from its byte 0. */
    public static FloatComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.duplicate().order(buffer.order()).clear().asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(offset);
    }

    public float getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(float real) {
        buffer.put(offset, real);
    }

    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer from this number on (element 0 is its real part); the buffer itself for item 0. */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.duplicate().clear().position(offset).slice();
    }
}
