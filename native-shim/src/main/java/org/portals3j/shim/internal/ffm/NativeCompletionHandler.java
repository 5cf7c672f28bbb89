package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.CompletionHandler;
import org.portals3j.lapi.LapiContext;

/**
 * A C {@code compl_hndlr_t} set by a C header handler, as the layer's {@link CompletionHandler}: called by
 * downcall with a pointer to the handle (in the calling thread's {@link HandlerFrame}) and the
 * {@code user_info} the header handler gave (a {@link Long} address, passed back as it was).
 */
final class NativeCompletionHandler implements CompletionHandler {
    private static final MethodHandle CALL = Linker.nativeLinker().downcallHandle(
            FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG));
    /** Completion handlers by address: set by the program's own header handlers, so as many as its functions. */
    private static final ConcurrentMap<Long, NativeCompletionHandler> KNOWN = new ConcurrentHashMap<>();

    private final MemorySegment function;

    private NativeCompletionHandler(long function) {
        this.function = MemorySegment.ofAddress(function);
    }

    static NativeCompletionHandler of(long function) {
        return KNOWN.computeIfAbsent(function, NativeCompletionHandler::new);
    }

    @Override
    public void onComplete(LapiContext context, @Nullable Object userInfo) {
        HandlerFrame frame = HandlerFrame.current(0);
        long hndl = frame.at(HandlerFrame.HNDL);
        LapiStructs.writeInt(hndl, context.handle());
        long info = userInfo instanceof Long address ? address : 0L;
        try {
            CALL.invokeExact(function, hndl, info);
        } catch (Throwable t) {
            throw new IllegalStateException("calling the C completion handler at 0x"
                    + Long.toHexString(function.address()) + " failed", t);
        }
    }

    @Override
    public String toString() {
        return "C compl_hndlr_t at 0x" + Long.toHexString(function.address());
    }
}
