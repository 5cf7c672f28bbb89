package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The memory of a user buffer as a segment, by the rules of mpi-java-api.md sections 1.3 and 4.8: a Java primitive
 * array from element 0; a heap or direct nio buffer from its element 0 ({@code arrayOffset()} for a heap buffer),
 * whatever its position and limit; {@code null} only for 0 elements. The segment keeps the array or buffer
 * reachable, so an operation that holds it holds the user's memory.
 *
 * <p>Choices (mpi-java-api.md leaves them open): a buffer whose element type is not the datatype's base type is
 * {@code ERR_TYPE}; a buffer with fewer elements than the operation needs, {@code null} with elements to move, a
 * read-only buffer to receive into, or an object that is no array or buffer, is {@code ERR_BUFFER}.
 */
public final class Buffers {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private Buffers() {
    }

    /**
     * The first {@code elements} elements of {@code buf} of base type {@code type}.
     *
     * @param receive whether the operation writes into the buffer
     * @throws MpiError ERR_TYPE or ERR_BUFFER as above
     */
    public static MemorySegment segment(@Nullable Object buf, long elements, BaseType type, boolean receive) {
        long bytes = elements * type.bytes();
        if (buf == null) {
            if (elements == 0) {
                return EMPTY;
            }
            throw new MpiError(ErrorClass.BUFFER, "the buffer is null but " + elements + " elements are to be "
                    + (receive ? "received" : "sent"));
        }
        MemorySegment all;
        if (buf instanceof Buffer b) {
            if (!type.accepts(b)) {
                throw mismatch(buf, type);
            }
            Buffer whole = b.duplicate().clear();
            try {
                all = MemorySegment.ofBuffer(whole);
            } catch (IllegalArgumentException e) {
                throw new MpiError(ErrorClass.BUFFER, "a " + buf.getClass().getSimpleName()
                        + " that is neither direct nor backed by an array cannot be used: " + e.getMessage());
            }
            if (receive && b.isReadOnly()) {
                throw new MpiError(ErrorClass.BUFFER, "cannot receive into a read-only buffer");
            }
        } else if (buf.getClass().isArray()) {
            if (buf.getClass() != type.arrayClass()) {
                throw mismatch(buf, type);
            }
            all = arraySegment(buf, receive);
        } else {
            throw new MpiError(ErrorClass.BUFFER, "a buffer must be a Java primitive array or a java.nio buffer, not "
                    + buf.getClass().getName());
        }
        if (all.byteSize() < bytes) {
            throw new MpiError(ErrorClass.BUFFER, "the buffer holds " + all.byteSize() / type.bytes()
                    + " elements, fewer than the " + elements + " the operation needs");
        }
        return all.asSlice(0, bytes);
    }

    /**
     * A copy of the first {@code elements} elements of {@code buf} as a Java array of the base type (the staging
     * copy of {@code sendRecvReplace}).
     */
    public static Object copyOf(@Nullable Object buf, int elements, BaseType type) {
        if (buf instanceof boolean[] b) {
            if (b.length < elements) {
                throw new MpiError(ErrorClass.BUFFER, "the buffer holds " + b.length
                        + " elements, fewer than the " + elements + " the operation needs");
            }
            return Arrays.copyOf(b, elements);
        }
        MemorySegment from = segment(buf, elements, type, false);
        Object copy = Array.newInstance(type.arrayClass().componentType(), elements);
        MemorySegment.copy(from, 0, arraySegment(copy, false), 0, from.byteSize());
        return copy;
    }

    /** Whether {@code buf} may be given to a nonblocking call (strict mode: direct buffers only). */
    public static void checkNonblocking(Buffer buf, boolean strict) {
        if (strict && !buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    private static MemorySegment arraySegment(Object array, boolean receive) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case boolean[] a -> receive ? MemorySegment.ofArray(new byte[a.length]) : booleansAsBytes(a);
            default -> throw new MpiError(ErrorClass.BUFFER, "not a primitive array: " + array.getClass());
        };
    }

    /**
     * A {@code boolean[]} has no memory segment: a send carries a copy as bytes (1 for true), and a receive lands
     * in a byte array of its length that {@link #copyBack} copies into the booleans when the receive completes.
     */
    private static MemorySegment booleansAsBytes(boolean[] a) {
        byte[] bytes = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            bytes[i] = a[i] ? (byte) 1 : 0;
        }
        return MemorySegment.ofArray(bytes);
    }

    /** The received {@code bytes} of a boolean receive's staging {@code segment}, into {@code target}. */
    public static void copyBack(MemorySegment segment, long bytes, boolean[] target) {
        for (int i = 0; i < bytes; i++) {
            target[i] = segment.get(ValueLayout.JAVA_BYTE, i) != 0;
        }
    }

    private static MpiError mismatch(Object buf, BaseType type) {
        return new MpiError(ErrorClass.TYPE, "a " + buf.getClass().getSimpleName() + " cannot carry " + type
                + " data: use a " + type.arrayClass().getSimpleName() + " (or its nio buffer) with this datatype");
    }
}
