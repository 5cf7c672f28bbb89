package org.portals3j.shim.internal.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The C memory a thread passes to a program's LAPI handlers: the handle, {@code uhdr} and its length, the
 * {@code lapi_return_info_t}, the {@code comp_h} and {@code user_info} out-arguments, the error handler's
 * arguments, and room for the copied user header and single-packet data. One per thread that calls handlers
 * (the dispatcher and completion threads), grown when a larger header or packet comes, so a message allocates
 * nothing; valid only during the call it is filled for.
 */
final class HandlerFrame {
    static final long HNDL = 0;
    static final long UHDR_LEN = 8;
    static final long COMP_H = 16;
    static final long USER_INFO = 24;
    static final long RETURN_INFO = 32;
    static final long ERROR_CODE = RETURN_INFO + LapiStructs.RETURN_INFO.byteSize();
    static final long ERROR_TYPE = ERROR_CODE + 4;
    static final long ERROR_TASK = ERROR_CODE + 8;
    static final long ERROR_SRC = ERROR_CODE + 12;
    private static final long FIXED = 128;
    private static final long INITIAL_ROOM = 1024 + 4096;

    private static final ThreadLocal<@Nullable HandlerFrame> FRAMES = new ThreadLocal<>();

    private final MemorySegment memory;
    private final long room;

    private HandlerFrame(long room) {
        this.room = room;
        this.memory = Arena.ofAuto().allocate(FIXED + room, 16);
    }

    /** This thread's frame, with room for at least {@code bytes} of copied header and data. */
    static HandlerFrame current(long bytes) {
        @Nullable HandlerFrame f = FRAMES.get();
        if (f == null || f.room < bytes) {
            f = new HandlerFrame(Math.max(INITIAL_ROOM, bytes));
            FRAMES.set(f);
        }
        return f;
    }

    /** The address of the member at {@code offset}. */
    long at(long offset) {
        return memory.address() + offset;
    }

    /** Copies {@code source} into the room at {@code offset} (from the room's start) and returns its address. */
    long copy(MemorySegment source, long offset) {
        MemorySegment.copy(source, 0, memory, FIXED + offset, source.byteSize());
        return memory.address() + FIXED + offset;
    }
}
