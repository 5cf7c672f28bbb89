package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The value/index pair types of {@code MPI.MINLOC} and {@code MPI.MAXLOC} (mpi-java-api.md sections 1.4 and 1.5),
 * laid out as C's struct of the value and an int index on LP64 (Open MPI's {@code MPI_2INT}, {@code MPI_SHORT_INT},
 * {@code MPI_LONG_INT} with a Java long, {@code MPI_FLOAT_INT}, {@code MPI_DOUBLE_INT}), in native byte order. Their
 * base type is BYTE: a buffer is a {@code byte[]} or {@code ByteBuffer}, extents count bytes.
 *
 * <p>MINLOC keeps the smaller value, MAXLOC the larger; on equal values both keep the smaller index (MPI-3.1
 * section 5.9.4). Floating-point values compare with {@code <} and {@code >}, as C does (a NaN never wins).
 */
public enum PairType {
    INT2(ValueLayout.JAVA_INT_UNALIGNED, 4, 8),
    SHORT_INT(ValueLayout.JAVA_SHORT_UNALIGNED, 4, 8),
    LONG_INT(ValueLayout.JAVA_LONG_UNALIGNED, 8, 16),
    FLOAT_INT(ValueLayout.JAVA_FLOAT_UNALIGNED, 4, 8),
    DOUBLE_INT(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8, 16);

    private final ValueLayout value;
    private final long indexOffset;
    private final int bytes;

    PairType(ValueLayout value, long indexOffset, int bytes) {
        this.value = value;
        this.indexOffset = indexOffset;
        this.bytes = bytes;
    }

    /** Bytes per pair (the extent). */
    public int bytes() {
        return bytes;
    }

    /** The alignment of the pair: its value's. */
    public int alignment() {
        return (int) value.byteSize();
    }

    /**
     * {@code op} on pairs of this type; the reduction's count is in bytes.
     *
     * @throws MpiError ERR_OP for an operation other than MINLOC and MAXLOC
     */
    public Reduction reduction(PredefinedOp op) {
        return switch (op) {
            case MINLOC -> (in, io, n) -> combine(in, io, n, false);
            case MAXLOC -> (in, io, n) -> combine(in, io, n, true);
            default -> throw new MpiError(ErrorClass.OP, "MPI." + op.name() + " does not apply to MPI." + name()
                    + ": only MPI.MINLOC and MPI.MAXLOC do");
        };
    }

    private void combine(MemorySegment in, MemorySegment io, int byteCount, boolean max) {
        for (long at = 0; at + bytes <= byteCount; at += bytes) {
            int order = compare(in, io, at);
            int a = in.get(ValueLayout.JAVA_INT_UNALIGNED, at + indexOffset);
            int b = io.get(ValueLayout.JAVA_INT_UNALIGNED, at + indexOffset);
            if (order == 0) {
                io.set(ValueLayout.JAVA_INT_UNALIGNED, at + indexOffset, Math.min(a, b));
            } else if (order != UNORDERED && (max ? order > 0 : order < 0)) {
                MemorySegment.copy(in, at, io, at, bytes);
            }
        }
    }

    private static final int UNORDERED = 2;

    /** The sign of in's value minus io's at byte {@code at}; UNORDERED if either is a NaN. */
    private int compare(MemorySegment in, MemorySegment io, long at) {
        return switch (value) {
            case ValueLayout.OfInt l -> Integer.compare(in.get(l, at), io.get(l, at));
            case ValueLayout.OfShort l -> Short.compare(in.get(l, at), io.get(l, at));
            case ValueLayout.OfLong l -> Long.compare(in.get(l, at), io.get(l, at));
            case ValueLayout.OfFloat l -> order(in.get(l, at), io.get(l, at));
            case ValueLayout.OfDouble l -> order(in.get(l, at), io.get(l, at));
            default -> throw new IllegalStateException("no pair of " + value);
        };
    }

    private static int order(double a, double b) {
        return a < b ? -1 : a > b ? 1 : a == b ? 0 : UNORDERED;
    }
}
