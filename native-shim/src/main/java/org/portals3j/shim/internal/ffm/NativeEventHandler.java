package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;

/**
 * A C {@code ptl_eq_handler_t} given to {@code PtlEQAlloc} (3.3 &sect;3.11.6), as the engine's
 * {@link EventHandler}: for every event deposited into its queue, the event is written as a 3.3
 * {@code ptl_event_t} into a buffer of the depositing thread and the C function is called with its
 * address. This is the one place the shim calls a function pointer of the program (an FFM downcall).
 *
 * <p>It runs where {@link EventHandler} says: on whatever thread deposits the event, an engine thread
 * (the transport's delivery thread, not a thread of the C program) or the program's own thread inside a
 * Portals call, with the library's lock held. So the C handler must not block, and a Portals function it
 * calls returns {@code PTL_FAIL}; the {@code ptl_event_t} it is given is valid only during the call.
 * Nothing is allocated per event: the buffer is made once per depositing thread, the function's segment
 * once per queue.
 */
final class NativeEventHandler implements EventHandler {
    /** Calls a {@code void (*)(ptl_event_t *)} given as its first argument. */
    private static final MethodHandle CALL = Linker.nativeLinker().downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));

    /** Each depositing thread's {@code ptl_event_t}, freed with the thread's last reference to it. */
    private static final ThreadLocal<@Nullable MemorySegment> BUFFER = new ThreadLocal<>();

    /**
     * The thread running a C handler now, else null: one at a time, as the engine's lock is held. Read by the
     * upcalls the shim answers without the engine (PtlInit, PtlFini, ptl_rt_barrier), so that they too refuse
     * to run inside a handler.
     */
    private static volatile @Nullable Thread running;

    private final MemorySegment function;

    /** The handler at C address {@code function} (not 0: that is {@code PTL_EQ_HANDLER_NONE}). */
    NativeEventHandler(long function) {
        this.function = MemorySegment.ofAddress(function);
    }

    @Override
    public void handle(Event event) {
        MemorySegment buffer = buffer();
        CStructs33.writeEvent(buffer.address(), event);
        Thread self = Thread.currentThread();
        running = self;
        try {
            CALL.invokeExact(function, buffer);
        } catch (Throwable t) {
            // a downcall throws only if the linker itself fails; the engine passes this to the thread's
            // uncaught-exception handler and goes on delivering (see EventHandler)
            throw new IllegalStateException("calling the C event handler at 0x" + Long.toHexString(function.address())
                    + " failed", t);
        } finally {
            running = null;
        }
    }

    /** Whether {@code thread} is running a C event handler now. */
    static boolean isRunningOn(Thread thread) {
        return running == thread;
    }

    private static MemorySegment buffer() {
        @Nullable MemorySegment b = BUFFER.get();
        if (b == null) {
            b = Arena.ofAuto().allocate(CStructs33.EVENT);
            BUFFER.set(b);
        }
        return b;
    }

    @Override
    public String toString() {
        return "C ptl_eq_handler_t at 0x" + Long.toHexString(function.address());
    }
}
