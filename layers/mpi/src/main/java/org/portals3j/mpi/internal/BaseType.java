package org.portals3j.mpi.internal;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Java primitive kind a datatype is made of (mpi-java-api.md section 1.4), with its size in bytes and the
 * array and buffer classes a buffer of it may be.
 */
public enum BaseType {
    BYTE(1, byte[].class, ByteBuffer.class),
    CHAR(2, char[].class, CharBuffer.class),
    SHORT(2, short[].class, ShortBuffer.class),
    BOOLEAN(1, boolean[].class, null),
    INT(4, int[].class, IntBuffer.class),
    LONG(8, long[].class, LongBuffer.class),
    FLOAT(4, float[].class, FloatBuffer.class),
    DOUBLE(8, double[].class, DoubleBuffer.class);

    private final int bytes;
    private final Class<?> arrayClass;
    private final @Nullable Class<? extends Buffer> bufferClass;

    BaseType(int bytes, Class<?> arrayClass, @Nullable Class<? extends Buffer> bufferClass) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
        this.bufferClass = bufferClass;
    }

    /** Bytes per element. */
    public int bytes() {
        return bytes;
    }

    /** The array class of this kind ({@code int[].class} for INT). */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    /** Whether {@code buffer} is a buffer of this kind (BOOLEAN has none). */
    public boolean accepts(Buffer buffer) {
        Class<? extends Buffer> c = bufferClass;
        return c != null && c.isInstance(buffer);
    }
}
