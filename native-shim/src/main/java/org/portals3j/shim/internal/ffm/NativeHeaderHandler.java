package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.RetFlag;
import org.portals3j.lapi.ReturnInfo;

/**
 * A C {@code hdr_hndlr_t} as the layer's {@link HeaderHandler}: called by downcall on the dispatcher thread with
 * the handle, a copy of {@code uhdr}, its length, the {@code lapi_return_info_t} ({@code msg_len}),
 * {@code comp_h} and {@code user_info}, all in the thread's {@link HandlerFrame}. Its return value becomes the
 * {@code msg_len} bytes the data is written to (NULL: none); {@code *comp_h} a {@link NativeCompletionHandler}
 * given {@code *user_info}; {@code ret_flags} the {@link RetFlag}; {@code ctl_flags} goes to
 * {@link ReturnInfo#setCtlFlags} as it is (the layer rejects a bit it does not know). Pointers are passed as 64-bit
 * integers (the same registers on x86-64 and AArch64), so a call allocates no segment for them.
 */
final class NativeHeaderHandler implements HeaderHandler {
    private static final MethodHandle CALL = Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    /** Handlers by address; bounded, as the addresses of checked remote handlers are remote input. */
    private static final ConcurrentMap<Long, NativeHeaderHandler> KNOWN = new ConcurrentHashMap<>();
    private static final int MAX_KNOWN = 4096;
    private static final RetFlag[] FLAGS = RetFlag.values();
    /** The handler {@link #of} found last: a message to the same handler as the one before boxes no address. */
    private static volatile @Nullable NativeHeaderHandler last;

    private final MemorySegment function;

    private NativeHeaderHandler(long function) {
        this.function = MemorySegment.ofAddress(function);
    }

    /** The handler at C address {@code function} (not 0), the same object for the same address while few. */
    static NativeHeaderHandler of(long function) {
        NativeHeaderHandler h = last;
        if (h != null && h.address() == function) {
            return h;
        }
        h = KNOWN.get(function);
        if (h == null) {
            h = new NativeHeaderHandler(function);
            if (KNOWN.size() < MAX_KNOWN) {
                NativeHeaderHandler before = KNOWN.putIfAbsent(function, h);
                h = before != null ? before : h;
            }
        }
        last = h;
        return h;
    }

    /** The C function's address. */
    long address() {
        return function.address();
    }

    @Override
    public @Nullable MemorySegment onHeader(LapiContext context, MemorySegment uhdr, ReturnInfo info) {
        MemorySegment onePacket = info.udataOnePacket();
        long room = uhdr.byteSize() + (onePacket != null && !onePacket.isNative() ? onePacket.byteSize() : 0);
        HandlerFrame frame = HandlerFrame.current(room);
        LapiStructs.writeInt(frame.at(HandlerFrame.HNDL), context.handle());
        long uhdrAddress = frame.copy(uhdr, 0);
        LapiStructs.writeInt(frame.at(HandlerFrame.UHDR_LEN), (int) uhdr.byteSize());
        long onePacketAddress = onePacket == null ? 0L
                : onePacket.isNative() ? onePacket.address() : frame.copy(onePacket, uhdr.byteSize());
        long returnInfo = frame.at(HandlerFrame.RETURN_INFO);
        LapiStructs.writeReturnInfo(returnInfo, info.msgLen(), onePacketAddress, info.srcTask());
        LapiStructs.writeLong(frame.at(HandlerFrame.COMP_H), 0L);
        LapiStructs.writeLong(frame.at(HandlerFrame.USER_INFO), 0L);
        long buffer;
        try {
            buffer = (long) CALL.invokeExact(function, frame.at(HandlerFrame.HNDL), uhdrAddress,
                    frame.at(HandlerFrame.UHDR_LEN), returnInfo, frame.at(HandlerFrame.COMP_H),
                    frame.at(HandlerFrame.USER_INFO));
        } catch (Throwable t) {
            throw new IllegalStateException("calling the C header handler at 0x" + Long.toHexString(address())
                    + " failed", t);
        }
        int flags = LapiStructs.retFlags(returnInfo);
        if (flags < 0 || flags >= FLAGS.length) {
            throw new IllegalArgumentException("the C header handler at 0x" + Long.toHexString(address())
                    + " set ret_flags " + flags + ": use LAPI_NORMAL, LAPI_SEND_REPLY or LAPI_LOCAL_STATE");
        }
        info.setRetFlags(FLAGS[flags]);
        info.setCtlFlags(LapiStructs.ctlFlags(returnInfo));
        long completion = LapiStructs.readLong(frame.at(HandlerFrame.COMP_H));
        if (completion != 0L) {
            info.setCompletion(NativeCompletionHandler.of(completion),
                    LapiStructs.readLong(frame.at(HandlerFrame.USER_INFO)));
        }
        if (buffer == 0L) {
            return null;
        }
        CLapiContext c = CLapiContext.find(context.handle());
        return c != null ? c.buffer(buffer, info.msgLen()) : MemorySegment.ofAddress(buffer).reinterpret(info.msgLen());
    }

    @Override
    public String toString() {
        return "C hdr_hndlr_t at 0x" + Long.toHexString(address());
    }
}
