package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.portals3j.fabric.internal.InfoSnapshot;
import org.portals3j.fabric.internal.NativeFabric;
import org.portals3j.fabric.internal.Structs;

/**
 * One {@code fi_info} entry that {@code fi_getinfo} returned for a {@link Hints}: the attributes a user of an RDM
 * endpoint needs, copied into Java. {@link Fabric#open(FabricInfo)} opens it. Immutable, owns no native memory.
 */
public final class FabricInfo {
    private static final int FI_ENODATA = 61;

    private final Hints hints;
    private final int index;
    private final InfoSnapshot s;

    private FabricInfo(Hints hints, int index, InfoSnapshot s) {
        this.hints = hints;
        this.index = index;
        this.s = s;
    }

    /**
     * What to ask {@code fi_getinfo} for. The binding always asks for mode 0 (operation contexts are plain
     * longs, so providers needing {@code FI_CONTEXT} do not match) and {@link MrMode#REQUESTED}.
     *
     * @param provider provider name, such as {@code "tcp;ofi_rxm"} or {@code "shm"}; empty for any
     * @param type endpoint type
     * @param caps {@link Caps} bits
     * @param node node address (e.g. {@code "127.0.0.1"}, passed with {@code FI_SOURCE}: the local address);
     *        empty for none (which on this machine also returns the eth0 fabrics)
     */
    public record Hints(String provider, EndpointType type, long caps, String node) {
        /** Tagged messages and RMA in both directions: what the GM transport uses. */
        public static final long TAGGED_RMA = Caps.MSG | Caps.TAGGED | Caps.RMA | Caps.READ | Caps.WRITE
                | Caps.REMOTE_READ | Caps.REMOTE_WRITE;

        /** An RDM endpoint of {@code provider} with {@link #TAGGED_RMA}, on loopback. */
        public static Hints rdm(String provider) {
            return new Hints(provider, EndpointType.RDM, TAGGED_RMA, "127.0.0.1");
        }
    }

    /**
     * {@code fi_getinfo} with {@code hints}: the matching entries, best first; empty if none matches
     * ({@code FI_ENODATA}).
     *
     * @throws FabricException for any other failure
     * @throws IllegalStateException if libfabric or the glue library cannot load ({@link Fabric#unavailableReason})
     */
    public static List<FabricInfo> query(Hints hints) {
        List<FabricInfo> out = new ArrayList<>();
        NativeFabric lib = NativeFabric.get();
        MemorySegment list = getinfo(lib, hints);
        if (list.equals(MemorySegment.NULL)) {
            return out;
        }
        try {
            int i = 0;
            for (MemorySegment e = list; !e.equals(MemorySegment.NULL); e = Structs.next(e)) {
                out.add(new FabricInfo(hints, i++, Structs.snapshot(e)));
            }
        } finally {
            lib.freeinfo(list);
        }
        return List.copyOf(out);
    }

    /** The list {@code fi_getinfo} returns for {@code hints} (the caller frees it), NULL if nothing matched. */
    static MemorySegment getinfo(NativeFabric lib, Hints hints) {
        MemorySegment h = lib.hints(hints.type().ordinal(), hints.caps(), MrMode.REQUESTED, hints.provider());
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            boolean hasNode = !hints.node().isEmpty();
            MemorySegment node = hasNode ? a.allocateFrom(hints.node()) : MemorySegment.NULL;
            int rc = lib.getinfo(node, MemorySegment.NULL, hasNode ? Caps.SOURCE : 0, h, out);
            if (rc == -FI_ENODATA) {
                return MemorySegment.NULL;
            }
            FabricException.check("fi_getinfo(" + hints + ")", rc);
            return out.get(ADDRESS, 0);
        } finally {
            lib.freeinfo(h);
        }
    }

    /** The hints this entry answered. */
    public Hints hints() {
        return hints;
    }

    /** Its position in the answer, which {@link Fabric#open} finds again. */
    int index() {
        return index;
    }

    /** {@code fabric_attr->prov_name}, e.g. {@code tcp;ofi_rxm}. */
    public String provider() {
        return s.provider();
    }

    /** {@code fabric_attr->name}. */
    public String fabricName() {
        return s.fabricName();
    }

    /** {@code domain_attr->name}. */
    public String domainName() {
        return s.domainName();
    }

    /** {@code ep_attr->type}. */
    public EndpointType endpointType() {
        return EndpointType.of(s.endpointType());
    }

    /** {@code caps}: {@link Caps} bits. */
    public long caps() {
        return s.caps();
    }

    /** {@code mode}: always 0 here (the binding asks for none). */
    public long mode() {
        return s.mode();
    }

    /** {@code addr_format}. */
    public AddressFormat addressFormat() {
        return AddressFormat.of(s.addressFormat());
    }

    /** {@code tx_attr->inject_size}. */
    public long injectSize() {
        return s.injectSize();
    }

    /** {@code ep_attr->max_msg_size} (unsigned: 2^64-1 reads as -1). */
    public long maxMessageSize() {
        return s.maxMessageSize();
    }

    /** {@code ep_attr->mem_tag_format}. */
    public long memTagFormat() {
        return s.memTagFormat();
    }

    /** {@code tx_attr->size}. */
    public long txSize() {
        return s.txSize();
    }

    /** {@code tx_attr->msg_order}. */
    public long txMessageOrder() {
        return s.txMessageOrder();
    }

    /** {@code rx_attr->size}. */
    public long rxSize() {
        return s.rxSize();
    }

    /** {@code domain_attr->mr_mode}: {@link MrMode} bits the provider needs. */
    public int mrMode() {
        return s.mrMode();
    }

    /** {@code domain_attr->mr_key_size}. */
    public long mrKeySize() {
        return s.mrKeySize();
    }

    /** {@code domain_attr->cq_data_size}: bytes of remote CQ data a send may carry. */
    public long cqDataSize() {
        return s.cqDataSize();
    }

    /** {@code domain_attr->control_progress}. */
    public Progress controlProgress() {
        return Progress.of(s.controlProgress());
    }

    /** {@code domain_attr->data_progress}. */
    public Progress dataProgress() {
        return Progress.of(s.dataProgress());
    }

    /** {@code domain_attr->threading} as its C value ({@code FI_THREAD_SAFE} 1, {@code FI_THREAD_DOMAIN} 3). */
    public int threading() {
        return s.threading();
    }

    @Override
    public String toString() {
        return provider() + " " + endpointType() + " fabric " + fabricName() + " domain " + domainName()
                + " inject " + injectSize() + " mr_mode 0x" + Integer.toHexString(mrMode()) + " progress "
                + dataProgress() + " " + addressFormat();
    }
}
