package mpi;

import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Reduction;

/**
 * The argument conversions every {@link Comm} call shares: counts of items as elements of the base type, the
 * base type, per-rank blocks, the root test and the reduction of an operation on a datatype.
 */
final class CommArgs {
    private CommArgs() {
    }

    /** The base type of {@code type}; ERR_TYPE for {@code DATATYPE_NULL}. */
    static BaseType typed(@Nullable Datatype type) {
        return typed(base(type));
    }

    static BaseType typed(@Nullable BaseType b) {
        if (b == null) {
            throw new MpiError(MPI.ERR_TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        return b;
    }

    static @Nullable BaseType base(@Nullable Datatype type) {
        if (type != null && type.base() != null) {
            Datatype.committedMap(type);
        }
        return type == null ? null : type.base();
    }

    /**
     * {@code count} items of {@code type} as elements of its base type (2 per item for a complex type); a negative
     * count stays negative (the callee's ERR_COUNT), a huge one saturates (its ERR_BUFFER).
     */
    static int items(int count, @Nullable Datatype type) {
        if (type != null && type.isStaged()) {
            throw new MpiError(MPI.ERR_TYPE, "this call does not take a non-contiguous derived datatype: pack the"
                    + " data (Comm.pack) or use a contiguous type");
        }
        int span = type == null ? 1 : type.span();
        return span == 1 ? count : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (long) count * span));
    }

    /** {@link #items(int, Datatype)} of each of {@code counts} (counts or displacements; null stays null). */
    static int @Nullable [] items(int @Nullable [] counts, @Nullable Datatype type) {
        if (counts == null || type == null || type.span() == 1) {
            items(0, type);
            return counts;
        }
        int[] scaled = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            scaled[i] = items(counts[i], type);
        }
        return scaled;
    }

    /** {@code counts} (a null array there is ERR_ARG). */
    static int[] present(int @Nullable [] counts) {
        if (counts == null) {
            throw new MpiError(MPI.ERR_ARG, "the count array must have one entry per neighbour");
        }
        return counts;
    }

    /**
     * Whether this rank is the root of a rooted collective: its rank on an intracommunicator; on an
     * intercommunicator the process of the root's group that passes {@code MPI.ROOT} (MPI 4.1 section 6.2.2).
     */
    static boolean isRoot(CommState c, int root) {
        return c.isInter() ? root == MPI.ROOT : c.rank() == root;
    }

    /**
     * Whether this rank receives data in a rooted collective that sends from the root (bcast, scatter): every rank
     * of an intracommunicator; on an intercommunicator only the group without the root, since the root's group
     * ({@code MPI.ROOT}, {@code MPI.PROC_NULL}) receives nothing and its receive buffers stay as they were.
     */
    static boolean receives(CommState c, int root) {
        return !c.isInter() || root != MPI.ROOT && root != MPI.PROC_NULL;
    }

    /**
     * Whether this rank's send buffer is significant in a rooted collective that brings data to the root (gather,
     * reduce): every rank of an intracommunicator; on an intercommunicator only the group without the root, since
     * the root's group ({@code MPI.ROOT}, {@code MPI.PROC_NULL}) sends nothing (MPI 4.1 section 6.2.2) and may pass
     * any buffer there, null or too short.
     */
    static boolean contributes(CommState c, int root) {
        return receives(c, root);
    }

    /** {@code n} copies of {@code count}. */
    static int[] blocks(int count, int n) {
        int[] counts = new int[n];
        Arrays.fill(counts, count);
        return counts;
    }

    /** {@code count} elements for each rank of {@code c}. */
    static int[] blocks(int count, CommState c) {
        int[] counts = new int[c.size()];
        Arrays.fill(counts, count);
        return counts;
    }

    /**
     * The reduction of {@code op} on items of {@code type}. A non-contiguous derived type is reduced as its packed
     * base elements: a predefined operation on them is exact for a type built of plain basic types; a user-defined
     * one is called on the packed elements with the basic type as its datatype (package documentation, MPI 3.1
     * section 5.9.5). A type with pair, complex or struct parts is ERR_OP.
     */
    static Reduction reduction(@Nullable Op op, @Nullable Datatype type) {
        if (type == null || !type.isStaged()) {
            return Op.reduction(op, type);
        }
        if (op == null) {
            throw new MpiError(MPI.ERR_OP, "invalid operation: null");
        }
        BaseType b = typed(type);
        if (!type.isReducible()) {
            throw new MpiError(MPI.ERR_OP, op.isPredefined()
                    ? "the predefined operations do not apply to a derived type made of struct, pair or complex"
                            + " types: use a user-defined Op on a contiguous copy"
                    : "a user-defined operation takes a non-contiguous derived type of basic types only, not one"
                            + " with struct, pair or complex parts: reduce a contiguous copy of the data");
        }
        return Op.reduction(op, Datatype.basic(b));
    }
}
