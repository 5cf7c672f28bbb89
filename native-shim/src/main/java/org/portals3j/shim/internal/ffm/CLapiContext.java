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

    private final LapiContext context;
    private final Map<Long, LapiCounter> counters;
    /**
     * The counters found last, by address hash: a call finds its counters here without boxing the address for
     * {@link #counters}. Any thread writes a slot; an entry is immutable, so a racing reader sees a whole one.
     */
    private final @Nullable Known[] recent = new Known[1 << RECENT_BITS];

    private CLapiContext(LapiContext context, Map<Long, LapiCounter> counters) {
        this.context = context;
        this.counters = counters;
    }

    /** Registers {@code context}, whose resolver reads {@code counters}. */
    static CLapiContext register(LapiContext context, Map<Long, LapiCounter> counters) {
        CLapiContext c = new CLapiContext(context, counters);
        BY_HANDLE.put(context.handle(), c);
        return c;
    }

    /** The context of C handle {@code handle}; {@code LAPI_ERR_HNDL_INVALID} if none. */
    static CLapiContext of(int handle) {
        CLapiContext c = BY_HANDLE.get(handle);
        if (c == null) {
            throw new LapiException(LapiError.HNDL_INVALID, "handle " + Integer.toUnsignedString(handle)
                    + " was never returned by LAPI_Init, or was terminated");
        }
        return c;
    }

    LapiContext context() {
        return context;
    }

    /** {@code LAPI_Term}: terminates the context and forgets the handle. */
    void term() {
        context.term();
        BY_HANDLE.remove(context.handle(), this);
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

    /** A counter and the address of its {@code lapi_cntr_t}. */
    private record Known(long address, LapiCounter counter) {
    }
}
