package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.AsyncErrorListener;
import org.portals3j.lapi.AsyncErrorType;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;

/**
 * {@code lapi_info_t.err_hndlr} as the layer's {@link AsyncErrorListener}: every report is said on stderr (one
 * line) and, if the program gave a handler, passed to it with {@code error_code} (the {@link LapiException}'s
 * code, else {@code LAPI_ERR_UNKNOWN}), {@code err_type} the layer's {@link AsyncErrorType} (its ordinal is the
 * {@code lapi_err_t} value), {@code task_id} this task and {@code src} the origin (-1 if none).
 */
final class NativeErrorHandler implements AsyncErrorListener {
    private static final MethodHandle CALL = Linker.nativeLinker().downcallHandle(
            FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));

    private final @Nullable MemorySegment function;

    /** The handler at {@code function}, or 0 for none (reports are only said). */
    NativeErrorHandler(long function) {
        this.function = function == 0L ? null : MemorySegment.ofAddress(function);
    }

    @Override
    public void onAsyncError(LapiContext context, AsyncErrorType type, int srcTask, String what,
            @Nullable Throwable cause) {
        int task = context.taskId();
        Failures.say("LAPI task " + task + " (" + type + "): " + what + (cause != null ? " (" + cause + ")" : ""));
        MemorySegment f = function;
        if (f == null) {
            return;
        }
        int code = cause instanceof LapiException e ? e.code() : LapiError.UNKNOWN.code();
        HandlerFrame frame = HandlerFrame.current(0);
        LapiStructs.writeInt(frame.at(HandlerFrame.HNDL), context.handle());
        LapiStructs.writeInt(frame.at(HandlerFrame.ERROR_CODE), code);
        LapiStructs.writeInt(frame.at(HandlerFrame.ERROR_TYPE), type.ordinal());
        LapiStructs.writeInt(frame.at(HandlerFrame.ERROR_TASK), task);
        LapiStructs.writeInt(frame.at(HandlerFrame.ERROR_SRC), srcTask);
        try {
            CALL.invokeExact(f, frame.at(HandlerFrame.HNDL), frame.at(HandlerFrame.ERROR_CODE),
                    frame.at(HandlerFrame.ERROR_TYPE), frame.at(HandlerFrame.ERROR_TASK),
                    frame.at(HandlerFrame.ERROR_SRC));
        } catch (Throwable t) {
            Failures.say("calling the C err_hndlr at 0x" + Long.toHexString(f.address()) + " failed: " + t);
        }
    }
}
