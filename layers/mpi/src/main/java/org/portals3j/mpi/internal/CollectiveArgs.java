package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The argument checks of the collectives, each failure an {@link MpiError} with Open MPI's error class, made before
 * any message is sent. Choices where the reference has no Java-level check (its JNI code would crash or read past
 * an array): a count or displacement array shorter than the communicator is ERR_ARG; a negative count in it is
 * ERR_COUNT; a negative displacement is ERR_BUFFER (it lies before the buffer); a rank calling the form of
 * {@code gatherv}/{@code scatterv} that is meant for the other side is ERR_ROOT.
 */
final class CollectiveArgs {
    private CollectiveArgs() {
    }

    static BaseType type(@Nullable BaseType type) {
        if (type == null) {
            throw new MpiError(ErrorClass.TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        return type;
    }

    static void count(int count) {
        if (count < 0) {
            throw new MpiError(ErrorClass.COUNT, "invalid count " + count + ": it must be 0 or more");
        }
    }

    static void root(CommState c, int root) {
        if (root < 0 || root >= c.size()) {
            throw new MpiError(ErrorClass.ROOT, "invalid root " + root + ": " + c.name() + " has ranks 0.."
                    + (c.size() - 1));
        }
    }

    /**
     * Checks per-rank counts and displacements ({@code displs} null: packed one after the other) and returns the
     * elements the buffer must hold.
     */
    static long extent(CommState c, int[] counts, int @Nullable [] displs) {
        if (displs != null && displs.length < c.size()) {
            throw new MpiError(ErrorClass.ARG, "the displacement array must have one entry per rank ("
                    + c.size() + ")");
        }
        long end = 0;
        long packed = 0;
        for (int r = 0; r < c.size(); r++) {
            count(counts[r]);
            long start = displs == null ? packed : displs[r];
            if (start < 0) {
                throw new MpiError(ErrorClass.BUFFER, "displacement " + start + " of rank " + r
                        + " lies before the start of the buffer");
            }
            end = Math.max(end, start + counts[r]);
            packed += counts[r];
        }
        return end;
    }

    /** Checks that a count array has an entry per rank. */
    static int[] counts(CommState c, int @Nullable [] counts) {
        if (counts == null || counts.length < c.size()) {
            throw new MpiError(ErrorClass.ARG, "the count array must have one entry per rank (" + c.size() + ")");
        }
        return counts;
    }

    /** The displacements of blocks of {@code counts} packed one after the other. */
    static int[] packed(int[] counts, int size) {
        int[] displs = new int[size];
        for (int r = 1; r < size; r++) {
            displs[r] = displs[r - 1] + counts[r - 1];
        }
        return displs;
    }

    /** {@code size} copies of {@code count}. */
    static int[] uniform(int count, int size) {
        int[] counts = new int[size];
        Arrays.fill(counts, count);
        return counts;
    }

    /** Copies {@code from} to the start of {@code to}; a block longer than its place is ERR_TRUNCATE. */
    static void copy(MemorySegment from, MemorySegment to) {
        if (from.byteSize() > to.byteSize()) {
            throw new MpiError(ErrorClass.TRUNCATE, "message truncated: " + from.byteSize()
                    + " bytes for a place of " + to.byteSize() + " (do the send and receive counts match?)");
        }
        MemorySegment.copy(from, 0, to, 0, from.byteSize());
    }

    /** A scratch segment of {@code bytes} bytes, aligned for any element type. */
    static MemorySegment scratch(long bytes) {
        return MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]).asSlice(0, bytes);
    }

    /** A scratch copy of {@code data}. */
    static MemorySegment copyOf(MemorySegment data) {
        MemorySegment s = scratch(data.byteSize());
        MemorySegment.copy(data, 0, s, 0, data.byteSize());
        return s;
    }
}
