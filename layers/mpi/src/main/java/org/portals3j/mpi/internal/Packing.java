package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code Comm.pack}, {@code unpack} and {@code packSize} (mpi-java-api.md section 2.5): an item is its bytes in
 * native order (a derived type's bytes in type-map order, the gaps left out), so a packed message is the items'
 * bytes one after the other (a {@code boolean} is one byte, 1 for true) and its size is their byte count. MPI leaves
 * the packed format to the implementation; it is read back only by {@code unpack} of this layer.
 *
 * <p>Errors: a negative count is ERR_COUNT; a position outside the byte array is ERR_ARG; too little room to pack,
 * or too few bytes to unpack, is ERR_TRUNCATE (as Open MPI reports a short output or input buffer); nothing is
 * written then.
 */
public final class Packing {
    private Packing() {
    }

    /**
     * Packs {@code elements} base elements of {@code in} into {@code out} from byte {@code position}.
     *
     * @return the position after them
     */
    public static int pack(@Nullable Object in, int elements, BaseType type, byte[] out, int position) {
        long bytes = bytes(elements, type);
        check(out, position, bytes, "pack", "the output");
        UserData from = UserData.of(in, elements, type, false);
        MemorySegment.copy(from.all(), 0, MemorySegment.ofArray(out), position, bytes);
        return (int) (position + bytes);
    }

    /**
     * Unpacks {@code elements} base elements of {@code type} from {@code in} at byte {@code position} into
     * {@code out}.
     *
     * @return the position after them
     */
    public static int unpack(byte[] in, int position, @Nullable Object out, int elements, BaseType type) {
        long bytes = bytes(elements, type);
        check(in, position, bytes, "unpack", "the input");
        UserData to = UserData.of(out, elements, type, true);
        MemorySegment.copy(MemorySegment.ofArray(in), position, to.all(), 0, bytes);
        to.commit();
        return (int) (position + bytes);
    }

    /** The bytes {@code elements} base elements of {@code type} take packed. */
    public static int size(int elements, BaseType type) {
        long bytes = bytes(elements, type);
        if (bytes > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.COUNT, elements + " elements of " + type + " do not fit in a byte array");
        }
        return (int) bytes;
    }

    private static long bytes(int elements, BaseType type) {
        if (elements < 0) {
            throw new MpiError(ErrorClass.COUNT, "a count cannot be negative: " + elements);
        }
        return (long) elements * type.bytes();
    }

    private static void check(byte[] packed, int position, long bytes, String what, String which) {
        if (position < 0 || position > packed.length) {
            throw new MpiError(ErrorClass.ARG, "the position " + position + " is outside the byte array of "
                    + packed.length + " bytes given to " + what);
        }
        if (packed.length - position < bytes) {
            throw new MpiError(ErrorClass.TRUNCATE, what + " needs " + bytes + " bytes from position " + position
                    + " but " + which + " array has " + (packed.length - position) + ": make it larger");
        }
    }

    // ---- derived datatypes: packed as their type map's bytes, in type-map order ----

    /** Packs {@code count} items of the non-contiguous type {@code map} of {@code in}; the position after them. */
    public static int pack(@Nullable Object in, int count, TypeMap map, byte[] out, int position) {
        long bytes = bytes(count, map);
        check(out, position, bytes, "pack", "the output");
        UserData from = UserData.of(in, map.span(0, count), map.base(), false);
        map.gather(from.all(), 0, count, MemorySegment.ofArray(out), position);
        return (int) (position + bytes);
    }

    /** Unpacks {@code count} items of the non-contiguous type {@code map} into {@code out}. */
    public static int unpack(byte[] in, int position, @Nullable Object out, int count, TypeMap map) {
        long bytes = bytes(count, map);
        check(in, position, bytes, "unpack", "the input");
        UserData to = UserData.of(out, map.span(0, count), map.base(), true);
        map.scatter(MemorySegment.ofArray(in), position, bytes, to.all(), 0, count);
        to.commit();
        return (int) (position + bytes);
    }

    /** The bytes {@code count} items of {@code map} take packed. */
    public static int size(int count, TypeMap map) {
        long bytes = bytes(count, map);
        if (bytes > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.COUNT, count + " items of the datatype do not fit in a byte array");
        }
        return (int) bytes;
    }

    private static long bytes(int count, TypeMap map) {
        if (count < 0) {
            throw new MpiError(ErrorClass.COUNT, "a count cannot be negative: " + count);
        }
        return count * map.size();
    }
}
