package org.portals3j.shim.internal.ffm;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.AddressResolver;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.shim.internal.ProcessMappings;

/**
 * What a C program's context accepts as an address from another task (lapi.h says the same to programs):
 * a header handler only in executable memory of a file-backed object other than the JVM's; a counter only a
 * {@code lapi_cntr_t} this program has used with LAPI ({@code counters}, filled by {@link CLapiContext}); Put
 * and Get memory only in writable (Put) or readable (Get) mappings, for the whole length. Anything else is null,
 * which the layer reports to the context's error listener and never uses.
 */
final class CAddressResolver implements AddressResolver {
    private final Map<Long, LapiCounter> counters;

    CAddressResolver(Map<Long, LapiCounter> counters) {
        this.counters = counters;
    }

    @Override
    public @Nullable HeaderHandler headerHandler(long address) {
        return ProcessMappings.self().isProgramCode(address) ? NativeHeaderHandler.of(address) : null;
    }

    @Override
    public @Nullable LapiCounter counter(LapiContext context, long address) {
        return counters.get(address);
    }

    @Override
    public @Nullable MemorySegment memory(long address, long length, boolean write) {
        int flags = write ? ProcessMappings.READ | ProcessMappings.WRITE : ProcessMappings.READ;
        return length >= 0 && ProcessMappings.self().covers(address, length, flags)
                ? MemorySegment.ofAddress(address).reinterpret(length) : null;
    }
}
