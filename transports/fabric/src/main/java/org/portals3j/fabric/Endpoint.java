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
 * An enabled RDM endpoint ({@code fi_endpoint}, bound to one completion queue and one address vector). The
 * {@code post*} methods start an asynchronous operation and return at once; its completion, carrying the
 * caller-chosen {@code context}, comes out of the completion queue. They allocate nothing.
 *
 * <p>Each {@code post*} returns {@code false} when the provider answers {@code FI_EAGAIN} (queue full, or, on
 * tcp;ofi_rxm, the connection to that peer is not up yet): read the completion queue, which also drives the
 * connection, and post again. Buffers must be native, lie inside {@code region} (pass {@code null} only if the
 * provider lacks {@link MrMode#LOCAL}), and stay alive and untouched until the completion.
 */
public final class Endpoint extends FabricResource {
    private static final int FI_ETOOSMALL = 257;
    private static final int FI_EBUSY = 16;
    private static final long FI_TRANSMIT = 1L << 11;
    private static final long FI_RECV = 1L << 10;

    private final boolean needsDescriptor;

    private Endpoint(Domain domain, MemorySegment handle, CompletionQueue cq, AddressVector av) {
        super("endpoint", handle, List.of(domain, cq, av));
        this.needsDescriptor = (domain.fabric().info().mrMode() & MrMode.LOCAL) != 0;
    }

    static Endpoint open(Domain domain, CompletionQueue cq, AddressVector av) {
        NativeFabric lib = NativeFabric.get();
        MemorySegment ep;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            FabricException.check("fi_endpoint", lib.endpoint(domain.handle(), domain.fabric().entry(), out));
            ep = out.get(ADDRESS, 0);
        }
        int rc = lib.epBind(ep, av.handle(), 0);
        String call = "fi_ep_bind(address vector)";
        if (rc == 0) {
            rc = lib.epBind(ep, cq.handle(), FI_TRANSMIT | FI_RECV);
            call = "fi_ep_bind(completion queue)";
        }
        String region = null;
        if (rc == 0 && "shm".equals(domain.fabric().info().provider())) {
            ShmRegions.sweep();
            region = ShmRegions.name();
            rc = lib.setname(ep, region);
            call = "fi_setname(the shm region's name)";
        }
        if (rc == 0) {
            rc = lib.enable(ep);
            call = "fi_enable";
        }
        if (rc != 0) {
            lib.close(ep);
            if (rc == -FI_EBUSY && region != null && call.equals("fi_enable")) {
                throw FabricException.of(call, FI_EBUSY, "shm region " + ShmRegions.DIRECTORY.resolve(region)
                        + " is in use or of another libfabric version: remove it if no process of yours uses it");
            }
            throw FabricException.of(call, -rc);
        }
        return new Endpoint(domain, ep, cq, av);
    }

    /** {@code fi_getname}: this endpoint's address, for peers' {@link AddressVector#insert(byte[])}. */
    public byte[] name() {
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment len = a.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, 256);
            MemorySegment buf = a.allocate(256);
            int rc = lib.getname(handle(), buf, len);
            if (rc == -FI_ETOOSMALL) {
                buf = a.allocate(len.get(JAVA_LONG, 0));
                rc = lib.getname(handle(), buf, len);
            }
            FabricException.check("fi_getname", rc);
            return buf.asSlice(0, len.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
        }
    }

    private MemorySegment descriptor(MemorySegment buffer, @Nullable MemoryRegion region) {
        requireNative(buffer, "the buffer");
        if (region == null) {
            if (needsDescriptor) {
                throw new IllegalArgumentException("this provider has FI_MR_LOCAL: pass the memory region that "
                        + "holds the buffer");
            }
            return MemorySegment.NULL;
        }
        return region.descriptorFor(buffer);
    }

    private static boolean posted(String call, long rc) {
        if (rc == -FabricException.FI_EAGAIN) {
            return false;
        }
        FabricException.check(call, rc);
        return true;
    }

    /** {@code fi_tsend}: sends {@code buffer} to {@code destination} with {@code tag}. */
    public boolean postTaggedSend(MemorySegment buffer, @Nullable MemoryRegion region, long destination, long tag,
            long context) {
        MemorySegment desc = descriptor(buffer, region);
        return posted("fi_tsend", NativeFabric.get().tsend(handle(), buffer, desc, destination, tag, context));
    }

    /** {@code fi_tsenddata}: as {@link #postTaggedSend}, with 8 bytes of remote CQ data for the receiver. */
    public boolean postTaggedSend(MemorySegment buffer, @Nullable MemoryRegion region, long destination, long tag,
            long data, long context) {
        MemorySegment desc = descriptor(buffer, region);
        return posted("fi_tsenddata", NativeFabric.get().tsenddata(handle(), buffer, desc, data, destination, tag,
                context));
    }

    /**
     * {@code fi_trecv}: posts {@code buffer} for one message whose tag equals {@code tag} in the bits
     * {@code ignore} leaves clear, from {@code source} ({@link AddressVector#ANY} for any). A longer message
     * completes with an error of {@code FI_ETRUNC}.
     */
    public boolean postTaggedReceive(MemorySegment buffer, @Nullable MemoryRegion region, long source, long tag,
            long ignore, long context) {
        MemorySegment desc = descriptor(buffer, region);
        return posted("fi_trecv", NativeFabric.get().trecv(handle(), buffer, desc, source, tag, ignore, context));
    }

    /**
     * {@code fi_writemsg} with {@code FI_DELIVERY_COMPLETE}: writes {@code buffer} at the peer's
     * {@code remoteAddress} (see {@link MemoryRegion#remoteAddress}) of region {@code remoteKey}; the completion
     * means the data is visible there.
     */
    public boolean postWrite(MemorySegment buffer, @Nullable MemoryRegion region, long destination,
            long remoteAddress, long remoteKey, long context) {
        MemorySegment desc = descriptor(buffer, region);
        return posted("fi_writemsg", NativeFabric.get().writeDelivered(handle(), buffer, desc, destination,
                remoteAddress, remoteKey, context));
    }

    /** {@code fi_read}: reads {@code buffer.byteSize()} bytes of the peer's region {@code remoteKey}. */
    public boolean postRead(MemorySegment buffer, @Nullable MemoryRegion region, long source, long remoteAddress,
            long remoteKey, long context) {
        MemorySegment desc = descriptor(buffer, region);
        return posted("fi_read", NativeFabric.get().read(handle(), buffer, desc, source, remoteAddress, remoteKey,
                context));
    }
}
