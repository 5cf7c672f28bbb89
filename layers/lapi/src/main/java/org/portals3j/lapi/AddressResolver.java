package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a target turns an address it received (a header handler, a {@code tgt_cntr}, a Put/Get target) into
 * something it may use, for addresses its context did not issue itself: the C binding's handler function pointers,
 * {@code lapi_cntr_t} addresses and process memory. Remote input: return {@code null} for anything not valid here,
 * never trust it.
 */
public interface AddressResolver {
    /** Resolves nothing: only the context's own addresses are valid (the Java API's default). */
    AddressResolver NONE = new AddressResolver() {
        @Override
        public @Nullable HeaderHandler headerHandler(long address) {
            return null;
        }

        @Override
        public @Nullable LapiCounter counter(LapiContext context, long address) {
            return null;
        }

        @Override
        public @Nullable MemorySegment memory(long address, long length, boolean write) {
            return null;
        }
    };

    /** The header handler at {@code address}, or null. */
    @Nullable HeaderHandler headerHandler(long address);

    /** The counter at {@code address} (made with {@link LapiContext#counterAt}), or null. */
    @Nullable LapiCounter counter(LapiContext context, long address);

    /** The {@code length} bytes at {@code address} if they may be written ({@code write}) or read, or null. */
    @Nullable MemorySegment memory(long address, long length, boolean write);
}
