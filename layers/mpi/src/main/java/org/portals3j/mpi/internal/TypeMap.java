package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The type map of a datatype, flattened: the blocks of bytes one item covers, relative to the item's origin, in
 * type-map order (the order data is packed and travels in), adjacent blocks of one element size merged; its bounds
 * (lower bound and extent, true lower bound and true upper bound) and its size, all in bytes; and the base type of
 * the buffers it applies to. Immutable. Every offset is bytes from element 0 of the user's buffer (Open MPI's
 * convention: a Java array is treated as the memory it would be copied to), whatever units the constructor's
 * arguments came in.
 *
 * <p>Bounds follow MPI 4.1 section 5.1.6 without the struct alignment padding (Open MPI adds none either): the lower
 * bound is the least of the copies' lower bounds, the upper bound the greatest of their upper bounds; a resized type
 * takes the bounds it is given. A type map of more than {@link #MAX_BLOCKS} blocks after merging is refused
 * ({@code ERR_ARG}).
 */
public final class TypeMap {
    /** The most blocks a flattened type map may have (24 bytes each). */
    public static final int MAX_BLOCKS = 1 << 20;

    private final BaseType base;
    private final long[] offsets;
    private final long[] lengths;
    /** The size of the basic elements of each block, in bytes (for {@link #elements}). */
    private final int[] elementBytes;
    private final long lb;
    private final long extent;
    private final long trueLb;
    private final long trueUb;
    private final long size;
    private final long elementsPerItem;

    private TypeMap(BaseType base, long[] offsets, long[] lengths, int[] elementBytes, long lb, long extent) {
        this.base = base;
        this.offsets = offsets;
        this.lengths = lengths;
        this.elementBytes = elementBytes;
        this.lb = lb;
        this.extent = extent;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        long s = 0;
        long e = 0;
        for (int i = 0; i < offsets.length; i++) {
            lo = Math.min(lo, offsets[i]);
            hi = Math.max(hi, offsets[i] + lengths[i]);
            s += lengths[i];
            e += lengths[i] / elementBytes[i];
        }
        this.trueLb = offsets.length == 0 ? 0 : lo;
        this.trueUb = offsets.length == 0 ? 0 : hi;
        this.size = s;
        this.elementsPerItem = e;
    }

    /** A predefined type: one block of {@code bytes} bytes of elements of {@code elementBytes} bytes. */
    public static TypeMap predefined(BaseType base, int bytes, int elementBytes) {
        return new TypeMap(base, new long[] {0}, new long[] {bytes}, new int[] {elementBytes}, 0, bytes);
    }

    /** Receives the copies of old types that make a new type. */
    @FunctionalInterface
    public interface Sink {
        /** A copy of {@code type} at byte {@code shift}. */
        void copy(TypeMap type, long shift);
    }

    /** Places the copies of old types a new type is made of, in type-map order. */
    @FunctionalInterface
    public interface Copies {
        void place(Sink sink);
    }

    /**
     * The concatenation of the copies {@code copies} places; the new type's base type is {@code base}. Nothing is
     * allocated per copy: a type of many copies of few blocks (a long contiguous run) costs only its blocks.
     *
     * @throws MpiError ERR_ARG if the result has more than {@link #MAX_BLOCKS} blocks
     */
    public static TypeMap of(BaseType base, Copies copies) {
        Builder b = new Builder();
        copies.place(b);
        long lo = b.copies == 0 ? 0 : b.lo;
        long hi = b.copies == 0 ? 0 : b.hi;
        return new TypeMap(base, b.offsets(), b.lengths(), b.elementBytes(), lo, hi - lo);
    }

    /** This type map with lower bound {@code newLb} and extent {@code newExtent} (bytes). */
    public TypeMap resized(long newLb, long newExtent) {
        return new TypeMap(base, offsets, lengths, elementBytes, newLb, newExtent);
    }

    public BaseType base() {
        return base;
    }

    public long lb() {
        return lb;
    }

    public long extent() {
        return extent;
    }

    public long trueLb() {
        return trueLb;
    }

    public long trueExtent() {
        return trueUb - trueLb;
    }

    /** The bytes of data in one item. */
    public long size() {
        return size;
    }

    /**
     * Whether {@code n} items are the {@code n * size()} bytes from element 0 of the buffer, so that the buffer
     * itself can travel (no copy).
     */
    public boolean contiguous() {
        return size == 0 ? extent == 0 && lb == 0
                : offsets.length == 1 && offsets[0] == 0 && lb == 0 && lengths[0] == extent
                        && extent % base.bytes() == 0;
    }

    /** The basic elements in {@code bytes} bytes of packed items, or -1 if they end inside an element. */
    public long elements(long bytes) {
        if (size == 0) {
            return bytes == 0 ? 0 : -1;
        }
        long whole = bytes / size;
        long rest = bytes % size;
        long n = whole * elementsPerItem;
        for (int i = 0; rest > 0 && i < offsets.length; i++) {
            long take = Math.min(rest, lengths[i]);
            if (take % elementBytes[i] != 0) {
                return -1;
            }
            n += take / elementBytes[i];
            rest -= take;
        }
        return n;
    }

    /**
     * The packed bytes of the first {@code elements} basic elements of items of this type (whole items, then the
     * leading elements of one more): the inverse of {@link #elements}; -1 for a type of no elements and a count above
     * 0 (MPI 3.1 section 4.1.11: a count of basic elements, not of items).
     */
    public long bytesOf(long elements) {
        if (elementsPerItem == 0) {
            return elements == 0 ? 0 : -1;
        }
        long rest = elements % elementsPerItem;
        long b = elements / elementsPerItem * size;
        for (int i = 0; rest > 0 && i < offsets.length; i++) {
            long take = Math.min(rest, lengths[i] / elementBytes[i]);
            b += take * elementBytes[i];
            rest -= take;
        }
        return b;
    }

    /**
     * The number of base elements from element 0 of a buffer that {@code count} items from byte {@code origin}
     * touch (0 if they hold no data).
     *
     * @throws MpiError ERR_BUFFER if they touch bytes before element 0
     */
    public long span(long origin, long count) {
        if (count == 0 || size == 0) {
            return 0;
        }
        long last = (count - 1) * extent;
        long low = origin + trueLb + Math.min(0, last);
        if (low < 0) {
            throw new MpiError(ErrorClass.BUFFER, "the datatype reaches " + -low + " bytes before element 0 of the"
                    + " buffer: pass a buffer sliced (MPI.slice) so that its element 0 is the lowest one the data"
                    + " covers");
        }
        long high = origin + trueUb + Math.max(0, last);
        return (high + base.bytes() - 1) / base.bytes();
    }

    /**
     * Copies {@code count} items of {@code user}, the first at byte {@code origin}, into {@code packed} from byte
     * {@code at}, one after the other.
     */
    public void gather(MemorySegment user, long origin, long count, MemorySegment packed, long at) {
        long p = at;
        for (long item = 0; item < count; item++) {
            long o = origin + item * extent;
            for (int i = 0; i < offsets.length; i++) {
                MemorySegment.copy(user, o + offsets[i], packed, p, lengths[i]);
                p += lengths[i];
            }
        }
    }

    /**
     * Copies the first {@code bytes} bytes of packed items in {@code packed} from byte {@code at} into
     * {@code user} by this type map, the first item at byte {@code origin} (at most {@code count} items; a partial
     * last item writes what arrived).
     */
    public void scatter(MemorySegment packed, long at, long bytes, MemorySegment user, long origin, long count) {
        long p = at;
        long end = at + bytes;
        for (long item = 0; item < count && p < end; item++) {
            long o = origin + item * extent;
            for (int i = 0; i < offsets.length && p < end; i++) {
                long n = Math.min(lengths[i], end - p);
                MemorySegment.copy(packed, p, user, o + offsets[i], n);
                p += n;
            }
        }
    }

    /**
     * Accumulates the blocks of copies, merging one that starts where the last ends with the same element size,
     * and their bounds.
     */
    private static final class Builder implements Sink {
        private long[] offsets = new long[4];
        private long[] lengths = new long[4];
        private int[] elementBytes = new int[4];
        private int n;
        private long copies;
        private long lo = Long.MAX_VALUE;
        private long hi = Long.MIN_VALUE;

        @Override
        public void copy(TypeMap t, long shift) {
            for (int k = 0; k < t.offsets.length; k++) {
                add(shift + t.offsets[k], t.lengths[k], t.elementBytes[k]);
            }
            lo = Math.min(lo, shift + t.lb);
            hi = Math.max(hi, shift + t.lb + t.extent);
            copies++;
        }

        void add(long offset, long length, int elemBytes) {
            if (length == 0) {
                return;
            }
            if (n > 0 && offsets[n - 1] + lengths[n - 1] == offset && elementBytes[n - 1] == elemBytes) {
                lengths[n - 1] += length;
                return;
            }
            if (n == MAX_BLOCKS) {
                throw new MpiError(ErrorClass.ARG, "the datatype would have more than " + MAX_BLOCKS
                        + " separate blocks: build it from larger blocks");
            }
            if (n == offsets.length) {
                int grown = Math.min(MAX_BLOCKS, n * 2);
                offsets = Arrays.copyOf(offsets, grown);
                lengths = Arrays.copyOf(lengths, grown);
                elementBytes = Arrays.copyOf(elementBytes, grown);
            }
            offsets[n] = offset;
            lengths[n] = length;
            elementBytes[n] = elemBytes;
            n++;
        }

        long[] offsets() {
            return Arrays.copyOf(offsets, n);
        }

        long[] lengths() {
            return Arrays.copyOf(lengths, n);
        }

        int[] elementBytes() {
            return Arrays.copyOf(elementBytes, n);
        }
    }
}
