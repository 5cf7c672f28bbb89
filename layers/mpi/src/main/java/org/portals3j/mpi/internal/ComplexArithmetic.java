package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The predefined reductions on the complex types {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX} (mpi-java-api.md
 * section 1.4: two floats or doubles per item, real part first). MPI defines SUM and PROD on complex numbers and
 * nothing else (no order, so no MAX, MIN, MINLOC, MAXLOC; no logical or bitwise operations): the others are
 * ERR_OP. SUM adds the parts one by one, as the base type's SUM does. PROD is (a + bi)(c + di) = (ac - bd) +
 * (ad + bc)i, in double for FLOAT_COMPLEX and rounded once to float (no scaling against overflow, as C's plain
 * formula; Annex G's infinity rules are not applied).
 */
public final class ComplexArithmetic {
    private ComplexArithmetic() {
    }

    /**
     * {@code op} on complex numbers of parts {@code part} (FLOAT or DOUBLE); the reduction's count is in parts.
     *
     * @throws MpiError ERR_OP for an operation other than SUM and PROD
     */
    public static Reduction on(PredefinedOp op, BaseType part) {
        return switch (op) {
            case SUM -> op.on(part);
            case PROD -> part == BaseType.FLOAT ? ComplexArithmetic::floatProducts : ComplexArithmetic::doubleProducts;
            default -> throw new MpiError(ErrorClass.OP, "MPI." + op.name() + " does not apply to complex data: only"
                    + " MPI.SUM and MPI.PROD do");
        };
    }

    private static void floatProducts(MemorySegment in, MemorySegment io, int parts) {
        for (long i = 0; i + 1 < parts; i += 2) {
            double a = in.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
            double b = in.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i + 1);
            double c = io.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
            double d = io.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i + 1);
            io.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) (a * c - b * d));
            io.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i + 1, (float) (a * d + b * c));
        }
    }

    private static void doubleProducts(MemorySegment in, MemorySegment io, int parts) {
        for (long i = 0; i + 1 < parts; i += 2) {
            double a = in.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            double b = in.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i + 1);
            double c = io.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            double d = io.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i + 1);
            io.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, a * c - b * d);
            io.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i + 1, a * d + b * c);
        }
    }
}
