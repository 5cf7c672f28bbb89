package mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Staged;

/**
 * One buffer argument of a call as the engine and the collectives take it: for a predefined or contiguous type,
 * the user's buffer with its counts in base elements (no copy); for a non-contiguous derived type, a {@link Staged}
 * packed copy (gathered now if the call reads it, scattered back by {@link #done()} if it writes it). Not public:
 * package {@code mpi} has only Open MPI's public names.
 */
final class Side {
    final @Nullable Object buf;
    final int elements;
    final int @Nullable [] counts;
    final int @Nullable [] displs;
    final @Nullable BaseType base;
    private final @Nullable Staged staged;
    /** Whether the call writes the buffer (only then does {@link #done()} scatter a staged copy into it). */
    private final boolean write;

    private Side(@Nullable Object buf, int elements, int @Nullable [] counts, int @Nullable [] displs,
            @Nullable BaseType base, @Nullable Staged staged, boolean write) {
        this.buf = buf;
        this.elements = elements;
        this.counts = counts;
        this.displs = displs;
        this.base = base;
        this.staged = staged;
        this.write = write;
    }

    /** {@code count} items of {@code type} from element 0 of {@code buf}. */
    static Side of(@Nullable Object buf, int count, @Nullable Datatype type, boolean read, boolean write) {
        if (type == null || !type.isStaged()) {
            return new Side(buf, CommArgs.items(count, type), null, null, CommArgs.base(type), null, write);
        }
        Staged s = Staged.of(buf, count, Datatype.committedMap(type), read, write);
        return new Side(s.array(), s.elements(), null, null, s.wireBase(), s, write);
    }

    /**
     * A buffer the call does not use on this rank (MPI calls it insignificant there): no elements, the base of
     * {@code type}, the user's buffer neither read, checked nor written.
     */
    static Side unused(@Nullable Datatype type) {
        return of(null, 0, type, false, false);
    }

    /** Blocks of {@code counts[i]} items from item {@code displs[i]} (packed one after the other if null). */
    static Side blocks(@Nullable Object buf, int @Nullable [] counts, int @Nullable [] displs,
            @Nullable Datatype type, boolean read, boolean write) {
        if (type == null || !type.isStaged() || counts == null) {
            return new Side(buf, 0, CommArgs.items(counts, type), CommArgs.items(displs, type), CommArgs.base(type),
                    null, write);
        }
        int[] at = displs;
        if (at == null) {
            at = new int[counts.length];
            for (int i = 1; i < counts.length; i++) {
                at[i] = at[i - 1] + counts[i - 1];
            }
        }
        Staged s = Staged.blocks(buf, counts, at, Datatype.committedMap(type), read, write);
        return new Side(s.array(), s.elements(), s.counts(), s.displs(), s.wireBase(), s, write);
    }

    /** Whether the buffer is a staged copy. */
    boolean isStaged() {
        return staged != null;
    }

    /** The staged copy (for a receive's arrival), or null. */
    @Nullable Staged staged() {
        return staged;
    }

    /** Scatters a staged copy the call wrote into the user's buffer; nothing for a direct one or one only read. */
    void done() {
        Staged s = staged;
        if (s != null && write) {
            s.scatter();
        }
    }
}
