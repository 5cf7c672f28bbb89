package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A user buffer of a non-contiguous datatype staged as packed data: blocks of items (each block a type map, the
 * byte of its first item, and a count of items) packed one after the other into a new Java array of the base type
 * (a {@code byte[]} for BOOLEAN, 1 for true), which the point-to-point engine and the collectives then move as
 * {@link #wireBase()} elements. Data the call reads is gathered when the stage is made; data it writes is scattered
 * into the user's buffer by {@link #scatter} once the call has completed. The user's buffer is checked (type,
 * length, the bytes the type maps reach) when the stage is made, so a bad buffer fails before anything is sent.
 */
public final class Staged implements ReceiveOperation.Arrival {
    private final TypeMap[] maps;
    private final long[] origins;
    private final int[] counts;
    private final UserData user;
    private final BaseType wire;
    private final Object array;
    private final MemorySegment packed;
    /** The packed elements of each block, and where each block starts in the packed array (elements). */
    private final int[] packedCounts;
    private final int[] packedDispls;

    private Staged(BaseType base, TypeMap[] maps, long[] origins, int[] counts, @Nullable Object buf, boolean read,
            boolean write) {
        this.maps = maps;
        this.origins = origins;
        this.counts = counts;
        long span = 0;
        long total = 0;
        packedCounts = new int[maps.length];
        packedDispls = new int[maps.length];
        wire = base == BaseType.BOOLEAN ? BaseType.BYTE : base;
        for (int i = 0; i < maps.length; i++) {
            if (maps[i].base() != base) {
                throw new MpiError(ErrorClass.TYPE, "the datatypes of one buffer must share its base type, not "
                        + base + " and " + maps[i].base());
            }
            if (counts[i] < 0) {
                throw new MpiError(ErrorClass.COUNT, "a count cannot be negative: " + counts[i]);
            }
            span = Math.max(span, maps[i].span(origins[i], counts[i]));
            long elements = counts[i] * maps[i].size() / wire.bytes();
            if (total + elements > Integer.MAX_VALUE) {
                throw new MpiError(ErrorClass.COUNT, "more than 2^31 elements to stage");
            }
            packedDispls[i] = (int) total;
            packedCounts[i] = (int) elements;
            total += elements;
        }
        user = UserData.of(buf, span, base, write);
        array = Array.newInstance(wire.arrayClass().componentType(), (int) total);
        packed = segmentOf(array);
        if (read) {
            for (int i = 0; i < maps.length; i++) {
                maps[i].gather(user.all(), origins[i], counts[i], packed, (long) packedDispls[i] * wire.bytes());
            }
        }
    }

    /** {@code count} items of {@code map} from element 0 of {@code buf}. */
    public static Staged of(@Nullable Object buf, int count, TypeMap map, boolean read, boolean write) {
        return new Staged(map.base(), new TypeMap[] {map}, new long[] {0}, new int[] {count}, buf, read, write);
    }

    /**
     * Blocks of {@code counts[i]} items of {@code map}, block {@code i} from item {@code displs[i]} (in extents of
     * the type, the v-collectives' convention); no blocks (a rank without neighbours, or a count array too short,
     * which the collective then reports as ERR_ARG) stage nothing.
     */
    public static Staged blocks(@Nullable Object buf, int[] counts, int[] displs, TypeMap map, boolean read,
            boolean write) {
        if (displs.length < counts.length) {
            throw new MpiError(ErrorClass.ARG, "the displacements must have an entry for each count");
        }
        TypeMap[] maps = new TypeMap[counts.length];
        long[] origins = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            maps[i] = map;
            origins[i] = displs[i] * map.extent();
        }
        return new Staged(map.base(), maps, origins, counts.clone(), buf, read, write);
    }

    /** Blocks of {@code counts[i]} items of {@code maps[i]} from byte {@code byteDispls[i]} (allToAllw). */
    public static Staged typed(@Nullable Object buf, int[] counts, int[] byteDispls, TypeMap[] maps, boolean read,
            boolean write) {
        if (byteDispls.length != counts.length || maps.length != counts.length || counts.length == 0) {
            throw new MpiError(ErrorClass.ARG, "counts, displacements and types must have an entry for each rank");
        }
        long[] origins = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            origins[i] = byteDispls[i];
        }
        return new Staged(maps[0].base(), maps.clone(), origins, counts.clone(), buf, read, write);
    }

    /** The packed array to give the engine (of {@link #wireBase()}). */
    public Object array() {
        return array;
    }

    /** The base type the packed array holds. */
    public BaseType wireBase() {
        return wire;
    }

    /** All the packed elements. */
    public int elements() {
        return (int) (packed.byteSize() / wire.bytes());
    }

    /** The packed elements of each block. */
    public int[] counts() {
        return packedCounts;
    }

    /** Where each block starts in the packed array, in elements. */
    public int[] displs() {
        return packedDispls;
    }

    /** Scatters every block's packed data into the user's buffer (a collective that wrote them all). */
    public void scatter() {
        for (int i = 0; i < maps.length; i++) {
            long at = (long) packedDispls[i] * wire.bytes();
            maps[i].scatter(packed, at, (long) packedCounts[i] * wire.bytes(), user.all(), origins[i], counts[i]);
        }
        user.commit();
    }

    /** Scatters the first {@code bytes} packed bytes (a receive of a single block: what arrived). */
    @Override
    public void arrived(long bytes) {
        maps[0].scatter(packed, 0, bytes, user.all(), origins[0], counts[0]);
        user.commit();
    }

    private static MemorySegment segmentOf(Object array) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalStateException("no packed array of " + array.getClass());
        };
    }
}
