package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.portals3j.fabric.internal.NativeFabric;

/**
 * Registered memory ({@code fi_mr_reg}): its key (what a peer needs for RMA into it) and its local descriptor
 * (what operations on it pass). The segment must stay alive until the region is closed.
 */
public final class MemoryRegion extends FabricResource {
    private final MemorySegment memory;
    private final MemorySegment descriptor;
    private final long key;
    private final boolean virtualAddresses;

    private MemoryRegion(Domain domain, MemorySegment handle, MemorySegment memory, MemorySegment descriptor,
            long key) {
        super("memory region", handle, List.of(domain));
        this.memory = memory;
        this.descriptor = descriptor;
        this.key = key;
        this.virtualAddresses = (domain.fabric().info().mrMode() & MrMode.VIRT_ADDR) != 0;
    }

    static MemoryRegion register(Domain domain, MemorySegment memory, long access, long requestedKey) {
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            FabricException.check("fi_mr_reg(key " + requestedKey + ")", lib.mrReg(domain.handle(), memory, access,
                    requestedKey, out));
            MemorySegment mr = out.get(ADDRESS, 0);
            return new MemoryRegion(domain, mr, memory, lib.mrDesc(mr), lib.mrKey(mr));
        }
    }

    /** {@code fi_mr_key}: the key peers pass to RMA this region. */
    public long key() {
        return key;
    }

    /** {@code fi_mr_desc}: the local descriptor (NULL on providers without {@link MrMode#LOCAL}). */
    public MemorySegment descriptor() {
        return descriptor;
    }

    /** The registered memory. */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * The RMA address a peer uses for byte {@code offset} of this region: the virtual address if the provider has
     * {@link MrMode#VIRT_ADDR} (shm), else the offset itself (tcp;ofi_rxm, udp;ofi_rxd).
     */
    public long remoteAddress(long offset) {
        if (offset < 0 || offset > memory.byteSize()) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside the region's " + memory.byteSize()
                    + " bytes");
        }
        return virtualAddresses ? memory.address() + offset : offset;
    }

    /** {@code descriptor()} after checking that this is open and {@code buffer} lies inside the region. */
    MemorySegment descriptorFor(MemorySegment buffer) {
        handle();
        long start = buffer.address() - memory.address();
        if (start < 0 || start + buffer.byteSize() > memory.byteSize()) {
            throw new IllegalArgumentException("the buffer (" + buffer.byteSize() + " bytes at 0x"
                    + Long.toHexString(buffer.address()) + ") is not inside this memory region (" + memory.byteSize()
                    + " bytes at 0x" + Long.toHexString(memory.address()) + "): pass the region that holds it");
        }
        return descriptor;
    }
}
