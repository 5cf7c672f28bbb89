package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.portals3j.fabric.internal.NativeFabric;

/**
 * An {@code FI_AV_TABLE} address vector ({@code fi_av_open}): turns peers' endpoint names
 * ({@link Endpoint#name()}) into the {@code fi_addr_t} longs that sends, receives and RMA take.
 */
public final class AddressVector extends FabricResource {
    /** {@code FI_ADDR_UNSPEC}: any source, for receives. */
    public static final long ANY = -1L;

    private static final int FI_AV_TABLE = 2;

    private final Domain domain;

    private AddressVector(Domain domain, MemorySegment handle) {
        super("address vector", handle, List.of(domain));
        this.domain = domain;
    }

    static AddressVector open(Domain domain, int count) {
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            FabricException.check("fi_av_open", lib.avOpen(domain.handle(), FI_AV_TABLE, count, out));
            return new AddressVector(domain, out.get(ADDRESS, 0));
        }
    }

    Domain domain() {
        return domain;
    }

    /**
     * Inserts one peer ({@code fi_av_insert}).
     *
     * @param name a name from {@link Endpoint#name()} of an endpoint of the same provider
     * @return the peer's address for this vector's endpoints
     * @throws FabricException if the provider rejects the name
     */
    public long insert(byte[] name) {
        if (name.length == 0) {
            throw new IllegalArgumentException("empty endpoint name: pass the bytes of a peer's Endpoint.name()");
        }
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocate(name.length);
            MemorySegment.copy(name, 0, addr, JAVA_BYTE, 0, name.length);
            MemorySegment out = a.allocate(JAVA_LONG);
            int rc = lib.avInsert(handle(), addr, 1, out);
            FabricException.check("fi_av_insert", rc);
            if (rc != 1) {
                throw new IllegalArgumentException("fi_av_insert took none of the name's " + name.length
                        + " bytes: is it a name of this provider's endpoints?");
            }
            return out.get(JAVA_LONG, 0);
        }
    }
}
