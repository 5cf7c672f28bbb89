package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A user buffer as the collectives see it: the memory of its first {@code elements} elements. A {@code boolean[]}
 * has no memory segment, so it is staged as bytes (1 for true) holding its current values, and {@link #commit()}
 * writes the bytes back into the booleans once the collective has written them.
 */
public final class UserData {
    private final MemorySegment segment;
    private final boolean @Nullable [] booleans;
    private final BaseType type;

    private UserData(MemorySegment segment, boolean @Nullable [] booleans, BaseType type) {
        this.segment = segment;
        this.booleans = booleans;
        this.type = type;
    }

    /**
     * The first {@code elements} elements of {@code buf}.
     *
     * @param write whether the collective writes into it
     * @throws MpiError ERR_BUFFER or ERR_TYPE as {@link Buffers#segment} says
     */
    public static UserData of(@Nullable Object buf, long elements, BaseType type, boolean write) {
        if (buf instanceof boolean[] b && type == BaseType.BOOLEAN) {
            if (b.length < elements) {
                throw new MpiError(ErrorClass.BUFFER, "the buffer holds " + b.length + " elements, fewer than the "
                        + elements + " the operation needs");
            }
            byte[] staged = new byte[(int) elements];
            for (int i = 0; i < staged.length; i++) {
                staged[i] = b[i] ? (byte) 1 : 0;
            }
            return new UserData(MemorySegment.ofArray(staged), write ? b : null, type);
        }
        return new UserData(Buffers.segment(buf, elements, type, write), null, type);
    }

    /** Elements {@code [from, from + count)}. */
    public MemorySegment elements(long from, long count) {
        return segment.asSlice(from * type.bytes(), count * type.bytes());
    }

    public MemorySegment all() {
        return segment;
    }

    /** Writes what the collective wrote back into a {@code boolean[]}; nothing to do for the other buffers. */
    public void commit() {
        boolean[] b = booleans;
        if (b != null) {
            for (int i = 0; i < segment.byteSize(); i++) {
                b[i] = segment.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
        }
    }
}
