package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.portals3j.fabric.internal.NativeFabric;

/**
 * A domain ({@code fi_domain}): the resources of one provider instance. Address vectors, completion queues,
 * memory regions and endpoints are opened on it and must be closed before it.
 */
public final class Domain extends FabricResource {
    private final Fabric fabric;

    private Domain(Fabric fabric, MemorySegment handle) {
        super("domain", handle, List.of(fabric));
        this.fabric = fabric;
    }

    static Domain open(Fabric fabric) {
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            FabricException.check("fi_domain", lib.domain(fabric.handle(), fabric.entry(), out));
            return new Domain(fabric, out.get(ADDRESS, 0));
        }
    }

    /** The fabric this domain belongs to. */
    public Fabric fabric() {
        return fabric;
    }

    /** Opens an {@code FI_AV_TABLE} address vector for about {@code count} peers ({@code fi_av_open}). */
    public AddressVector openAddressVector(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("address vector count " + count + " must be at least 1");
        }
        return AddressVector.open(this, count);
    }

    /**
     * Opens a completion queue of {@code FI_CQ_FORMAT_TAGGED} entries ({@code fi_cq_open}).
     *
     * @param size entries; at least the endpoint's transmit plus receive operations outstanding at once
     * @param wait {@link WaitObject#NONE} to poll only; {@link WaitObject#FD} fails with {@code FI_ENOSYS} on shm
     */
    public CompletionQueue openCompletionQueue(int size, WaitObject wait) {
        if (size < 1) {
            throw new IllegalArgumentException("completion queue size " + size + " must be at least 1");
        }
        return CompletionQueue.open(this, size, wait);
    }

    /**
     * Registers {@code memory} ({@code fi_mr_reg}) for {@code access} ({@link Caps#SEND}, {@link Caps#RECV},
     * {@link Caps#READ}, {@link Caps#WRITE}, {@link Caps#REMOTE_READ}, {@link Caps#REMOTE_WRITE}).
     *
     * @param requestedKey the key; without {@link MrMode#PROV_KEY} (no provider here sets it) the application
     *        chooses keys and each must be unique in the domain, else {@code FI_ENOKEY}
     * @throws IllegalArgumentException if {@code memory} is a heap segment or empty
     * @throws FabricException if libfabric refuses ({@code FI_ENOKEY} for a key in use)
     */
    public MemoryRegion register(MemorySegment memory, long access, long requestedKey) {
        requireNative(memory, "the memory to register");
        if (memory.byteSize() == 0) {
            throw new IllegalArgumentException("cannot register an empty segment");
        }
        return MemoryRegion.register(this, memory, access, requestedKey);
    }

    /**
     * Opens an RDM endpoint ({@code fi_endpoint}), binds {@code av} and {@code cq} (for transmit and receive
     * completions: {@code fi_ep_bind}) and enables it ({@code fi_enable}).
     */
    public Endpoint openEndpoint(CompletionQueue cq, AddressVector av) {
        if (cq.domain() != this || av.domain() != this) {
            throw new IllegalArgumentException("the completion queue and address vector must be of this domain");
        }
        return Endpoint.open(this, cq, av);
    }
}
