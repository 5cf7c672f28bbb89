package org.portals3j.shim.internal.ffm;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;

/**
 * A LAPI context of the C program: the layer's {@link LapiContext} and the {@code lapi_cntr_t} addresses the
 * program has used with it (the counters its {@link CAddressResolver} accepts from other tasks). Found by the
 * C handle; removed at {@code LAPI_Term}.
 */
final class CLapiContext {
    private static final Map<Integer, CLapiContext> BY_HANDLE = new ConcurrentHashMap<>();
    /** Slots of {@link #recent}: 2 to the power {@code RECENT_BITS}. */
    private static final int RECENT_BITS = 4;
    /** The context {@link #of} found last: a program with one context looks nothing up per call. */
    private static volatile @Nullable CLapiContext last;

    private final LapiContext context;
    private final Map<Long, LapiCounter> counters;
    /**
     * The counters found last, by address hash: a call finds its counters here without boxing the address for
     * {@link #counters}. Any thread writes a slot; an entry is immutable, so a racing reader sees a whole one.
     */
    private final @Nullable Known[] recent = new Known[1 << RECENT_BITS];
    /** The segments of the program's buffers (sent from, or returned by its header handlers) made last. */
    private final BufferSegments buffers = new BufferSegments();
    private final int handle;
    /** Set by {@link #term} first: a racing {@link #of} may leave this context in {@link #last}, never to be used. */
    private volatile boolean terminated;

    private CLapiContext(LapiContext context, Map<Long, LapiCounter> counters) {
        this.context = context;
        this.counters = counters;
        this.handle = context.handle();
    }

    /** Registers {@code context}, whose resolver reads {@code counters}. */
    static CLapiContext register(LapiContext context, Map<Long, LapiCounter> counters) {
        CLapiContext c = new CLapiContext(context, counters);
        BY_HANDLE.put(context.handle(), c);
        return c;
    }

    /** The context of C handle {@code handle}; {@code LAPI_ERR_HNDL_INVALID} if none. */
    static CLapiContext of(int handle) {
        CLapiContext c = find(handle);
        if (c == null) {
            throw new LapiException(LapiError.HNDL_INVALID, "handle " + Integer.toUnsignedString(handle)
                    + " was never returned by LAPI_Init, or was terminated");
        }
        return c;
    }

    /** The context of C handle {@code handle}, or null if none. */
    static @Nullable CLapiContext find(int handle) {
        CLapiContext c = last;
        if (c != null && c.handle == handle && !c.terminated) {
            return c;
        }
        c = BY_HANDLE.get(handle);
        if (c != null) {
            last = c;
        }
        return c;
    }

    LapiContext context() {
        return context;
    }

    /** {@code LAPI_Term}: terminates the context and forgets the handle. */
    void term() {
        terminated = true;
        context.term();
        BY_HANDLE.remove(handle, this);
        last = null;
    }

    /** The counter of the {@code lapi_cntr_t} at {@code address}, or null for NULL; remembered as used. */
    @Nullable LapiCounter counter(long address) {
        if (address == 0L) {
            return null;
        }
        int slot = (int) (address * 0x9E3779B97F4A7C15L >>> (64 - RECENT_BITS)); // Fibonacci hashing
        Known k = recent[slot];
        if (k != null && k.address == address) {
            return k.counter;
        }
        LapiCounter c = counters.get(address);
        if (c == null) {
            c = context.counterAt(MemorySegment.ofAddress(address).reinterpret(LapiStructs.CNTR.byteSize()));
            counters.put(address, c);
        }
        recent[slot] = new Known(address, c);
        return c;
    }

    /** The program's {@code length} bytes at {@code address} (not 0), as {@link BufferSegments#of}. */
    MemorySegment buffer(long address, long length) {
        return buffers.of(address, length);
    }

    /** A counter and the address of its {@code lapi_cntr_t}. */
    private record Known(long address, LapiCounter counter) {
    }
}
