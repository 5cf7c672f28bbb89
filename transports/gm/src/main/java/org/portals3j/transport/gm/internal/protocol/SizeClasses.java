package org.portals3j.transport.gm.internal.protocol;

/**
 * GM's size classes (GM 2 manual, "Sending Messages"; gm-libfabric.md section 1.2): a message of {@code length}
 * bytes has size {@code ceil(log2(length + 8))}, and a buffer of size {@code s} holds up to {@code 2^s - 8} bytes.
 * A sender may use any size at or above a message's minimum; this transport uses the smallest of the sizes its
 * receivers prepost that fits.
 */
public final class SizeClasses {
    /** The smallest size that holds a message (of 0 bytes). */
    public static final int MIN_SIZE = 3;
    /** The largest size libgm carries (5 bits of its tag; messages up to 2^31 - 8 bytes). */
    public static final int MAX_SIZE = 31;

    private final int[] sizes;

    /** The preposted sizes, ascending, each in [{@link #MIN_SIZE}, {@link #MAX_SIZE}]. */
    public SizeClasses(int... sizes) {
        if (sizes.length == 0) {
            throw new IllegalArgumentException("at least one size class");
        }
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < MIN_SIZE || sizes[i] > MAX_SIZE || i > 0 && sizes[i] <= sizes[i - 1]) {
                throw new IllegalArgumentException("size classes must ascend within [" + MIN_SIZE + ", " + MAX_SIZE
                        + "]: size " + sizes[i] + " at index " + i);
            }
        }
        this.sizes = sizes.clone();
    }

    /** gm_min_size_for_length: the smallest size whose buffers hold {@code length} bytes. */
    public static int minSizeForLength(long length) {
        if (length < 0 || length > maxLengthForSize(MAX_SIZE)) {
            throw new IllegalArgumentException("length " + length + " is outside GM's message lengths");
        }
        return 64 - Long.numberOfLeadingZeros(length + 7); // ceil(log2(length + 8))
    }

    /** gm_max_length_for_size: the most bytes a buffer of {@code size} holds. */
    public static long maxLengthForSize(int size) {
        if (size < MIN_SIZE || size > MAX_SIZE) {
            throw new IllegalArgumentException("size " + size + " is outside [" + MIN_SIZE + ", " + MAX_SIZE + "]");
        }
        return (1L << size) - 8;
    }

    public int count() {
        return sizes.length;
    }

    public int size(int index) {
        return sizes[index];
    }

    /** The largest message a preposted buffer holds. */
    public long largestLength() {
        return maxLengthForSize(sizes[sizes.length - 1]);
    }

    /** The index of the smallest preposted size that holds {@code length} bytes, or -1 if none does. */
    public int indexFor(long length) {
        if (length < 0 || length > largestLength()) {
            return -1;
        }
        int min = minSizeForLength(length);
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] >= min) {
                return i;
            }
        }
        return -1;
    }

    /** The index of {@code size} among the preposted sizes, or -1 (a size nobody preposted: hostile input). */
    public int indexOfSize(int size) {
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] == size) {
                return i;
            }
        }
        return -1;
    }
}
