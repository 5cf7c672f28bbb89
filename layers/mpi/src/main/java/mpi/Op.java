package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.ComplexArithmetic;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.PairType;
import org.portals3j.mpi.internal.PredefinedOp;
import org.portals3j.mpi.internal.Reduction;

/**
 * A reduction operation (mpi-java-api.md section 1.5): one of the predefined ones in {@code MPI}, whose rules of
 * which type each applies to are in {@code org.portals3j.mpi.internal.PredefinedOp} (an op on a type it does not
 * apply to is {@code ERR_OP}), or a user-defined one made of a {@link UserFunction}. A user function is called with
 * direct byte buffers in native order holding {@code count} items (its array form by default: arrays of
 * {@code count} times the type's extent base elements, two per complex number), or with
 * {@code boolean[]} arrays for {@code MPI.BOOLEAN}; its {@code inOutVec} holds the operand of the higher ranks. On a
 * non-contiguous derived type it gets the packed basic elements with the basic type (see
 * {@code org.portals3j.mpi.internal}).
 */
public final class Op implements Freeable {
    private final @Nullable PredefinedOp predefined;
    private final @Nullable UserFunction function;
    private final boolean commute;
    private volatile boolean freed;

    Op(PredefinedOp predefined) {
        this.predefined = predefined;
        this.function = null;
        this.commute = true;
    }

    /** A user-defined operation; {@code commute} says whether it is commutative. */
    public Op(UserFunction function, boolean commute) {
        this.predefined = null;
        this.function = function;
        this.commute = commute;
    }

    public boolean isCommutative() {
        return commute;
    }

    /** Whether the operation has been freed (never for a predefined one). */
    public boolean isNull() {
        return freed;
    }

    /** Frees a user-defined operation; freeing a predefined one is {@code ERR_OP}. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined != null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_OP, "MPI." + predefined.name()
                    + " is predefined and cannot be freed");
        }
        freed = true;
    }

    /**
     * This operation on {@code type}'s elements.
     *
     * @throws MpiError ERR_OP if it is freed or does not apply to the type; ERR_TYPE for no type
     */
    Reduction on(@Nullable Datatype type) {
        if (freed) {
            throw new MpiError(MPI.ERR_OP, "the operation has been freed");
        }
        BaseType base = type == null ? null : type.base();
        if (type == null || base == null) {
            throw new MpiError(MPI.ERR_TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        PredefinedOp p = predefined;
        UserFunction f = function;
        if (p != null) {
            PairType pair = type.pair();
            if (pair != null) {
                return pair.reduction(p);
            } else if (type.isOpaque()) {
                throw new MpiError(MPI.ERR_OP, "MPI." + p.name() + " does not apply to a struct type: use a"
                        + " user-defined Op");
            }
            return type.isComplex() ? ComplexArithmetic.on(p, base) : p.on(base);
        }
        if (f == null) {
            throw new MpiError(MPI.ERR_OP, "an operation without a function");
        }
        return user(f, type, base);
    }

    private static Reduction user(UserFunction f, Datatype type, BaseType base) {
        return base == BaseType.BOOLEAN ? (in, io, n) -> callOnBooleans(f, in, io, n, type)
                : (in, io, n) -> callOnBuffers(f, in, io, n / type.span(), type);
    }

    /** The reduction of {@code op} on {@code type}, or the error of a null operation (ERR_OP). */
    static Reduction reduction(@Nullable Op op, @Nullable Datatype type) {
        if (op == null) {
            throw new MpiError(MPI.ERR_OP, "invalid operation: null");
        }
        return op.on(type);
    }

    private static void callOnBuffers(UserFunction f, MemorySegment in, MemorySegment io, int count, Datatype t) {
        ByteBuffer a = ByteBuffer.allocateDirect((int) in.byteSize()).order(ByteOrder.nativeOrder());
        ByteBuffer b = ByteBuffer.allocateDirect((int) io.byteSize()).order(ByteOrder.nativeOrder());
        MemorySegment.copy(in, 0, MemorySegment.ofBuffer(a), 0, in.byteSize());
        MemorySegment.copy(io, 0, MemorySegment.ofBuffer(b), 0, io.byteSize());
        try {
            f.call(a, b, count, t);
        } catch (MPIException e) {
            throw new MpiError(e.getErrorClass(), "the user operation failed: " + e.getMessage());
        }
        MemorySegment.copy(MemorySegment.ofBuffer(b), 0, io, 0, io.byteSize());
    }

    private static void callOnBooleans(UserFunction f, MemorySegment in, MemorySegment io, int count, Datatype t) {
        boolean[] a = new boolean[count];
        boolean[] b = new boolean[count];
        for (int i = 0; i < count; i++) {
            a[i] = in.get(ValueLayout.JAVA_BYTE, i) != 0;
            b[i] = io.get(ValueLayout.JAVA_BYTE, i) != 0;
        }
        try {
            f.call(a, b, count, t);
        } catch (MPIException e) {
            throw new MpiError(e.getErrorClass(), "the user operation failed: " + e.getMessage());
        }
        for (int i = 0; i < count; i++) {
            io.set(ValueLayout.JAVA_BYTE, i, b[i] ? (byte) 1 : 0);
        }
    }

    // ---- derived datatypes (Comm.reduction) ----

    /** Whether this is one of the predefined operations. */
    boolean isPredefined() {
        return predefined != null;
    }
}
