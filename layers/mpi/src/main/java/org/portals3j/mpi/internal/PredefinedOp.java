package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The predefined reduction operations on the basic types, with MPI's rules of which operation applies to which
 * type, applied to the C types behind Open MPI's Java types (mpi-java-api.md sections 1.4 and 1.5):
 * <ul>
 *   <li>MAX, MIN, SUM, PROD: the numeric types BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE;</li>
 *   <li>LAND, LOR, LXOR: the integer types and BOOLEAN (non-zero is true; the result is 1 or 0);</li>
 *   <li>BAND, BOR, BXOR: the integer types BYTE, CHAR, SHORT, INT, LONG;</li>
 *   <li>MINLOC, MAXLOC: none of these; the pair types ({@link PairType});</li>
 *   <li>REPLACE, NO_OP: no type (they are for one-sided accumulate, which this layer does not have).</li>
 * </ul>
 * Choices (section 4.10): BYTE is C's {@code uint8_t}, so MAX and MIN compare bytes unsigned (-1 is 255, above 1);
 * CHAR is unsigned 16-bit as in Java; integer SUM and PROD wrap around in the type's width (two's complement).
 * BOOLEAN is not numeric: SUM on it is ERR_OP. FLOAT arithmetic is done in double and rounded once to float, which
 * gives the float result exactly for + and * (double has more than 2 * 24 + 2 significand bits).
 */
public enum PredefinedOp {
    MAX(Kinds.NUMERIC, Math::max, Math::max),
    MIN(Kinds.NUMERIC, Math::min, Math::min),
    SUM(Kinds.NUMERIC, (a, b) -> a + b, (a, b) -> a + b),
    PROD(Kinds.NUMERIC, (a, b) -> a * b, (a, b) -> a * b),
    LAND(Kinds.LOGICAL, (a, b) -> a != 0 && b != 0 ? 1 : 0, Kinds.NOT_FLOATING),
    BAND(Kinds.INTEGER, (a, b) -> a & b, Kinds.NOT_FLOATING),
    LOR(Kinds.LOGICAL, (a, b) -> a != 0 || b != 0 ? 1 : 0, Kinds.NOT_FLOATING),
    BOR(Kinds.INTEGER, (a, b) -> a | b, Kinds.NOT_FLOATING),
    LXOR(Kinds.LOGICAL, (a, b) -> (a != 0) != (b != 0) ? 1 : 0, Kinds.NOT_FLOATING),
    BXOR(Kinds.INTEGER, (a, b) -> a ^ b, Kinds.NOT_FLOATING),
    /** The smallest value with its index: on the pair types only ({@link PairType}). */
    MINLOC(Set.of(), (a, b) -> b, (a, b) -> b),
    /** The largest value with its index: on the pair types only ({@link PairType}). */
    MAXLOC(Set.of(), (a, b) -> b, (a, b) -> b),
    /** The incoming value replaces the target's (accumulate semantics; no reduction type). */
    REPLACE(Set.of(), (a, b) -> a, (a, b) -> a),
    /** The target keeps its value (accumulate semantics; no reduction type). */
    NO_OP(Set.of(), (a, b) -> b, (a, b) -> b);

    /** Which basic types each family of operations applies to. */
    private static final class Kinds {
        static final Set<BaseType> INTEGER = EnumSet.of(BaseType.BYTE, BaseType.CHAR, BaseType.SHORT, BaseType.INT,
                BaseType.LONG);
        static final Set<BaseType> NUMERIC = union(INTEGER, EnumSet.of(BaseType.FLOAT, BaseType.DOUBLE));
        static final Set<BaseType> LOGICAL = union(INTEGER, EnumSet.of(BaseType.BOOLEAN));
        /** The floating-point form of an operation that has none: never called ({@link #on} refuses the types). */
        static final DoubleBinaryOperator NOT_FLOATING = (a, b) -> {
            throw new IllegalStateException("not a floating-point operation");
        };

        private static Set<BaseType> union(Set<BaseType> a, Set<BaseType> b) {
            EnumSet<BaseType> u = EnumSet.copyOf(a);
            u.addAll(b);
            return u;
        }
    }

    private final Set<BaseType> types;
    private final LongBinaryOperator integral;
    private final DoubleBinaryOperator floating;
    /** The reduction of each base type, made on first use (so that a reduction call allocates nothing). */
    private final @Nullable Reduction[] byType = new Reduction[BaseType.values().length];

    PredefinedOp(Set<BaseType> types, LongBinaryOperator integral, DoubleBinaryOperator floating) {
        this.types = types;
        this.integral = integral;
        this.floating = floating;
    }

    /** Whether this operation applies to {@code type}. */
    public boolean appliesTo(BaseType type) {
        return types.contains(type);
    }

    /**
     * This operation on elements of {@code type}.
     *
     * @throws MpiError ERR_OP if it does not apply to the type
     */
    public Reduction on(BaseType type) {
        if (!appliesTo(type)) {
            throw new MpiError(ErrorClass.OP, "MPI." + name() + " does not apply to " + type + " data"
                    + (this == MINLOC || this == MAXLOC ? ": it applies to the pair types (MPI.INT2, SHORT_INT,"
                    + " LONG_INT, FLOAT_INT, DOUBLE_INT) only"
                    : types.isEmpty() ? " (it is for one-sided accumulate only)" : ": it applies to " + types));
        }
        Reduction kept = byType[type.ordinal()];
        if (kept != null) {
            return kept;
        }
        Reduction r = switch (type) {
            case BYTE -> (in, io, n) -> bytes(in, io, n, true);
            case BOOLEAN -> (in, io, n) -> bytes(in, io, n, false);
            case CHAR -> (in, io, n) -> chars(in, io, n);
            case SHORT -> (in, io, n) -> shorts(in, io, n);
            case INT -> (in, io, n) -> ints(in, io, n);
            case LONG -> (in, io, n) -> longs(in, io, n);
            case FLOAT -> (in, io, n) -> floats(in, io, n);
            case DOUBLE -> (in, io, n) -> doubles(in, io, n);
        };
        byType[type.ordinal()] = r; // a race makes an equal one: either may be kept
        return r;
    }

    private void bytes(MemorySegment in, MemorySegment io, int n, boolean unsigned) {
        for (long i = 0; i < n; i++) {
            long a = in.get(ValueLayout.JAVA_BYTE, i);
            long b = io.get(ValueLayout.JAVA_BYTE, i);
            if (unsigned) {
                a &= 0xFF;
                b &= 0xFF;
            }
            io.set(ValueLayout.JAVA_BYTE, i, (byte) integral.applyAsLong(a, b));
        }
    }

    private void chars(MemorySegment in, MemorySegment io, int n) {
        for (long i = 0; i < n; i++) {
            long a = in.getAtIndex(ValueLayout.JAVA_CHAR_UNALIGNED, i);
            long b = io.getAtIndex(ValueLayout.JAVA_CHAR_UNALIGNED, i);
            io.setAtIndex(ValueLayout.JAVA_CHAR_UNALIGNED, i, (char) integral.applyAsLong(a, b));
        }
    }

    private void shorts(MemorySegment in, MemorySegment io, int n) {
        for (long i = 0; i < n; i++) {
            long a = in.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i);
            long b = io.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i);
            io.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) integral.applyAsLong(a, b));
        }
    }

    private void ints(MemorySegment in, MemorySegment io, int n) {
        for (long i = 0; i < n; i++) {
            long a = in.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i);
            long b = io.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i);
            io.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) integral.applyAsLong(a, b));
        }
    }

    private void longs(MemorySegment in, MemorySegment io, int n) {
        for (long i = 0; i < n; i++) {
            long a = in.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
            long b = io.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
            io.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, integral.applyAsLong(a, b));
        }
    }

    private void floats(MemorySegment in, MemorySegment io, int n) {
        for (long i = 0; i < n; i++) {
            double a = in.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
            double b = io.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
            io.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) floating.applyAsDouble(a, b));
        }
    }

    private void doubles(MemorySegment in, MemorySegment io, int n) {
        for (long i = 0; i < n; i++) {
            double a = in.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            double b = io.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            io.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, floating.applyAsDouble(a, b));
        }
    }
}
