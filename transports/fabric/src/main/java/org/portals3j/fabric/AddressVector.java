package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.fabric.internal.NativeFabric;

/**
 * An {@code FI_AV_TABLE} address vector ({@code fi_av_open}): turns peers' endpoint names
 * ({@link Endpoint#name()}) into the {@code fi_addr_t} longs that sends, receives and RMA take.
 */
public final class AddressVector extends FabricResource {
    /** {@code FI_ADDR_UNSPEC}: any source, for receives. */
    public static final long ANY = -1L;

    /** The smallest buffer a name is passed to libfabric in. */
    static final int MIN_NAME_BUFFER = 256;

    private static final int FI_AV_TABLE = 2;
    private static final int SOCKADDR_IN_LENGTH = 16;
    private static final int SOCKADDR_IN6_LENGTH = 28;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;

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
     * Inserts one peer ({@code fi_av_insert}). The name is checked against the provider's address format first
     * (16 bytes of {@code AF_INET} for {@code FI_SOCKADDR_IN}, 28 of {@code AF_INET6} for {@code FI_SOCKADDR_IN6},
     * NUL-terminated for {@code FI_ADDR_STR}), and libfabric reads it from a zero-padded copy of at least
     * {@value #MIN_NAME_BUFFER} bytes, so a short or hostile name cannot make it read past the end.
     *
     * @param name a name from {@link Endpoint#name()} of an endpoint of the same provider
     * @return the peer's address for this vector's endpoints
     * @throws IllegalArgumentException if the name cannot be one of this provider's
     * @throws FabricException if the provider rejects the name
     */
    public long insert(byte[] name) {
        checkName(name, domain.fabric().info().addressFormat());
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocate(Math.max(name.length, MIN_NAME_BUFFER));
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

    private static void checkName(byte[] name, AddressFormat format) {
        @Nullable String problem = switch (format) {
            case SOCKADDR_IN -> name.length == SOCKADDR_IN_LENGTH && family(name) == AF_INET ? null
                    : "an FI_SOCKADDR_IN name is 16 bytes of family AF_INET";
            case SOCKADDR_IN6 -> name.length == SOCKADDR_IN6_LENGTH && family(name) == AF_INET6 ? null
                    : "an FI_SOCKADDR_IN6 name is 28 bytes of family AF_INET6";
            case ADDR_STR -> name.length > 1 && name[name.length - 1] == 0 ? null
                    : "an FI_ADDR_STR name is a NUL-terminated string";
            default -> name.length > 0 ? null : "a name is not empty";
        };
        if (problem != null) {
            throw new IllegalArgumentException("not an endpoint name of this provider (" + name.length + " bytes): "
                    + problem + "; pass the bytes of a peer's Endpoint.name()");
        }
    }

    /** {@code sa_family} of a sockaddr: 2 bytes in host order (x86_64: little-endian). */
    private static int family(byte[] name) {
        return (name[0] & 0xff) | (name[1] & 0xff) << 8;
    }
}
