package org.portals3j.fabric.internal;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The libfabric 1.x structs the binding reads or writes, as FFM layouts of x86_64 Linux (LP64), field names as in
 * the C headers; and the only code that reads or writes them. {@code FabricLayoutTest} compares every layout with
 * the C compiler's {@code sizeof} and {@code offsetof}.
 */
public final class Structs {
    /** {@code struct fi_info} (rdma/fabric.h). */
    public static final StructLayout FI_INFO = structLayout(
            ADDRESS.withName("next"), JAVA_LONG.withName("caps"), JAVA_LONG.withName("mode"),
            JAVA_INT.withName("addr_format"), paddingLayout(4),
            JAVA_LONG.withName("src_addrlen"), JAVA_LONG.withName("dest_addrlen"),
            ADDRESS.withName("src_addr"), ADDRESS.withName("dest_addr"), ADDRESS.withName("handle"),
            ADDRESS.withName("tx_attr"), ADDRESS.withName("rx_attr"), ADDRESS.withName("ep_attr"),
            ADDRESS.withName("domain_attr"), ADDRESS.withName("fabric_attr"), ADDRESS.withName("nic"))
            .withName("fi_info");

    /** {@code struct fi_tx_attr}. */
    public static final StructLayout FI_TX_ATTR = structLayout(
            JAVA_LONG.withName("caps"), JAVA_LONG.withName("mode"), JAVA_LONG.withName("op_flags"),
            JAVA_LONG.withName("msg_order"), JAVA_LONG.withName("comp_order"), JAVA_LONG.withName("inject_size"),
            JAVA_LONG.withName("size"), JAVA_LONG.withName("iov_limit"), JAVA_LONG.withName("rma_iov_limit"),
            JAVA_INT.withName("tclass"), paddingLayout(4))
            .withName("fi_tx_attr");

    /** {@code struct fi_rx_attr}. */
    public static final StructLayout FI_RX_ATTR = structLayout(
            JAVA_LONG.withName("caps"), JAVA_LONG.withName("mode"), JAVA_LONG.withName("op_flags"),
            JAVA_LONG.withName("msg_order"), JAVA_LONG.withName("comp_order"),
            JAVA_LONG.withName("total_buffered_recv"), JAVA_LONG.withName("size"), JAVA_LONG.withName("iov_limit"))
            .withName("fi_rx_attr");

    /** {@code struct fi_ep_attr}. */
    public static final StructLayout FI_EP_ATTR = structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("protocol"), JAVA_INT.withName("protocol_version"),
            paddingLayout(4),
            JAVA_LONG.withName("max_msg_size"), JAVA_LONG.withName("msg_prefix_size"),
            JAVA_LONG.withName("max_order_raw_size"), JAVA_LONG.withName("max_order_war_size"),
            JAVA_LONG.withName("max_order_waw_size"), JAVA_LONG.withName("mem_tag_format"),
            JAVA_LONG.withName("tx_ctx_cnt"), JAVA_LONG.withName("rx_ctx_cnt"), JAVA_LONG.withName("auth_key_size"),
            ADDRESS.withName("auth_key"))
            .withName("fi_ep_attr");

    /** {@code struct fi_domain_attr}. */
    public static final StructLayout FI_DOMAIN_ATTR = structLayout(
            ADDRESS.withName("domain"), ADDRESS.withName("name"), JAVA_INT.withName("threading"),
            JAVA_INT.withName("control_progress"), JAVA_INT.withName("data_progress"),
            JAVA_INT.withName("resource_mgmt"), JAVA_INT.withName("av_type"), JAVA_INT.withName("mr_mode"),
            JAVA_LONG.withName("mr_key_size"), JAVA_LONG.withName("cq_data_size"), JAVA_LONG.withName("cq_cnt"),
            JAVA_LONG.withName("ep_cnt"), JAVA_LONG.withName("tx_ctx_cnt"), JAVA_LONG.withName("rx_ctx_cnt"),
            JAVA_LONG.withName("max_ep_tx_ctx"), JAVA_LONG.withName("max_ep_rx_ctx"),
            JAVA_LONG.withName("max_ep_stx_ctx"), JAVA_LONG.withName("max_ep_srx_ctx"),
            JAVA_LONG.withName("cntr_cnt"), JAVA_LONG.withName("mr_iov_limit"), JAVA_LONG.withName("caps"),
            JAVA_LONG.withName("mode"), ADDRESS.withName("auth_key"), JAVA_LONG.withName("auth_key_size"),
            JAVA_LONG.withName("max_err_data"), JAVA_LONG.withName("mr_cnt"), JAVA_INT.withName("tclass"),
            paddingLayout(4))
            .withName("fi_domain_attr");

    /** {@code struct fi_fabric_attr}. */
    public static final StructLayout FI_FABRIC_ATTR = structLayout(
            ADDRESS.withName("fabric"), ADDRESS.withName("name"), ADDRESS.withName("prov_name"),
            JAVA_INT.withName("prov_version"), JAVA_INT.withName("api_version"))
            .withName("fi_fabric_attr");

    /** {@code struct fi_cq_attr} (rdma/fi_eq.h). */
    public static final StructLayout FI_CQ_ATTR = structLayout(
            JAVA_LONG.withName("size"), JAVA_LONG.withName("flags"), JAVA_INT.withName("format"),
            JAVA_INT.withName("wait_obj"), JAVA_INT.withName("signaling_vector"), JAVA_INT.withName("wait_cond"),
            ADDRESS.withName("wait_set"))
            .withName("fi_cq_attr");

    /** {@code struct fi_cq_tagged_entry}: the completions a {@code FI_CQ_FORMAT_TAGGED} queue returns. */
    public static final StructLayout FI_CQ_TAGGED_ENTRY = structLayout(
            JAVA_LONG.withName("op_context"), JAVA_LONG.withName("flags"), JAVA_LONG.withName("len"),
            JAVA_LONG.withName("buf"), JAVA_LONG.withName("data"), JAVA_LONG.withName("tag"))
            .withName("fi_cq_tagged_entry");

    /** {@code struct fi_cq_err_entry}. */
    public static final StructLayout FI_CQ_ERR_ENTRY = structLayout(
            JAVA_LONG.withName("op_context"), JAVA_LONG.withName("flags"), JAVA_LONG.withName("len"),
            JAVA_LONG.withName("buf"), JAVA_LONG.withName("data"), JAVA_LONG.withName("tag"),
            JAVA_LONG.withName("olen"), JAVA_INT.withName("err"), JAVA_INT.withName("prov_errno"),
            ADDRESS.withName("err_data"), JAVA_LONG.withName("err_data_size"))
            .withName("fi_cq_err_entry");

    /** {@code struct fi_av_attr} (rdma/fi_domain.h). */
    public static final StructLayout FI_AV_ATTR = structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("rx_ctx_bits"), JAVA_LONG.withName("count"),
            JAVA_LONG.withName("ep_per_node"), ADDRESS.withName("name"), ADDRESS.withName("map_addr"),
            JAVA_LONG.withName("flags"))
            .withName("fi_av_attr");

    /**
     * glibc's {@code struct sigaction} (signal.h), opaque: the loader saves and restores the JVM's handlers in it
     * (see {@link NativeFabric}).
     */
    public static final StructLayout SIGACTION = structLayout(paddingLayout(152)).withName("sigaction");

    /** Every layout above, for the layout test. */
    public static final List<StructLayout> ALL = List.of(FI_INFO, FI_TX_ATTR, FI_RX_ATTR, FI_EP_ATTR,
            FI_DOMAIN_ATTR, FI_FABRIC_ATTR, FI_CQ_ATTR, FI_CQ_TAGGED_ENTRY, FI_CQ_ERR_ENTRY, FI_AV_ATTR, SIGACTION);

    /** {@code FI_CQ_FORMAT_TAGGED}. */
    static final int CQ_FORMAT_TAGGED = 4;

    private static final long ENTRY_SIZE = FI_CQ_TAGGED_ENTRY.byteSize();
    private static final long ENTRY_CONTEXT = offset(FI_CQ_TAGGED_ENTRY, "op_context");
    private static final long ENTRY_FLAGS = offset(FI_CQ_TAGGED_ENTRY, "flags");
    private static final long ENTRY_LEN = offset(FI_CQ_TAGGED_ENTRY, "len");
    private static final long ENTRY_BUF = offset(FI_CQ_TAGGED_ENTRY, "buf");
    private static final long ENTRY_DATA = offset(FI_CQ_TAGGED_ENTRY, "data");
    private static final long ENTRY_TAG = offset(FI_CQ_TAGGED_ENTRY, "tag");

    private Structs() {
    }

    /** The byte offset of {@code field} in {@code layout}. */
    public static long offset(StructLayout layout, String field) {
        return layout.byteOffset(PathElement.groupElement(field));
    }

    /** Field {@code name} (an 8-byte field) of entry {@code i} of an array of {@code fi_cq_tagged_entry}. */
    public static long entryContext(MemorySegment entries, int i) {
        return entries.get(JAVA_LONG, i * ENTRY_SIZE + ENTRY_CONTEXT);
    }

    public static long entryFlags(MemorySegment entries, int i) {
        return entries.get(JAVA_LONG, i * ENTRY_SIZE + ENTRY_FLAGS);
    }

    public static long entryLength(MemorySegment entries, int i) {
        return entries.get(JAVA_LONG, i * ENTRY_SIZE + ENTRY_LEN);
    }

    public static long entryBuffer(MemorySegment entries, int i) {
        return entries.get(JAVA_LONG, i * ENTRY_SIZE + ENTRY_BUF);
    }

    public static long entryData(MemorySegment entries, int i) {
        return entries.get(JAVA_LONG, i * ENTRY_SIZE + ENTRY_DATA);
    }

    public static long entryTag(MemorySegment entries, int i) {
        return entries.get(JAVA_LONG, i * ENTRY_SIZE + ENTRY_TAG);
    }

    /** An 8-byte field of an {@code fi_cq_err_entry}. */
    public static long errorLong(MemorySegment entry, String field) {
        return entry.get(JAVA_LONG, offset(FI_CQ_ERR_ENTRY, field));
    }

    /** An int field ({@code err}, {@code prov_errno}) of an {@code fi_cq_err_entry}. */
    public static int errorInt(MemorySegment entry, String field) {
        return entry.get(JAVA_INT, offset(FI_CQ_ERR_ENTRY, field));
    }

    /** The attributes of one {@code fi_info} entry, copied out of native memory. */
    public static InfoSnapshot snapshot(MemorySegment info) {
        MemorySegment i = info.reinterpret(FI_INFO.byteSize());
        MemorySegment tx = pointee(i, "tx_attr", FI_TX_ATTR);
        MemorySegment rx = pointee(i, "rx_attr", FI_RX_ATTR);
        MemorySegment ep = pointee(i, "ep_attr", FI_EP_ATTR);
        MemorySegment dom = pointee(i, "domain_attr", FI_DOMAIN_ATTR);
        MemorySegment fab = pointee(i, "fabric_attr", FI_FABRIC_ATTR);
        return new InfoSnapshot(
                string(fab, FI_FABRIC_ATTR, "prov_name"), fab.get(JAVA_INT, offset(FI_FABRIC_ATTR, "prov_version")),
                string(fab, FI_FABRIC_ATTR, "name"), string(dom, FI_DOMAIN_ATTR, "name"),
                i.get(JAVA_LONG, offset(FI_INFO, "caps")), i.get(JAVA_LONG, offset(FI_INFO, "mode")),
                i.get(JAVA_INT, offset(FI_INFO, "addr_format")),
                ep.get(JAVA_INT, offset(FI_EP_ATTR, "type")),
                ep.get(JAVA_LONG, offset(FI_EP_ATTR, "max_msg_size")),
                ep.get(JAVA_LONG, offset(FI_EP_ATTR, "mem_tag_format")),
                tx.get(JAVA_LONG, offset(FI_TX_ATTR, "inject_size")), tx.get(JAVA_LONG, offset(FI_TX_ATTR, "size")),
                tx.get(JAVA_LONG, offset(FI_TX_ATTR, "msg_order")), rx.get(JAVA_LONG, offset(FI_RX_ATTR, "size")),
                dom.get(JAVA_INT, offset(FI_DOMAIN_ATTR, "mr_mode")),
                dom.get(JAVA_LONG, offset(FI_DOMAIN_ATTR, "mr_key_size")),
                dom.get(JAVA_LONG, offset(FI_DOMAIN_ATTR, "cq_data_size")),
                dom.get(JAVA_INT, offset(FI_DOMAIN_ATTR, "threading")),
                dom.get(JAVA_INT, offset(FI_DOMAIN_ATTR, "control_progress")),
                dom.get(JAVA_INT, offset(FI_DOMAIN_ATTR, "data_progress")));
    }

    /** The provider name of an {@code fi_info} entry (all a {@code FI_PROV_ATTR_ONLY} entry is sure to have). */
    public static String providerName(MemorySegment info) {
        MemorySegment i = info.reinterpret(FI_INFO.byteSize());
        return string(pointee(i, "fabric_attr", FI_FABRIC_ATTR), FI_FABRIC_ATTR, "prov_name");
    }

    /** The provider version of an {@code fi_info} entry, {@code FI_VERSION(major, minor)}. */
    public static int providerVersion(MemorySegment info) {
        MemorySegment i = info.reinterpret(FI_INFO.byteSize());
        return pointee(i, "fabric_attr", FI_FABRIC_ATTR).get(JAVA_INT, offset(FI_FABRIC_ATTR, "prov_version"));
    }

    /** The endpoint type of an {@code fi_info} entry. */
    public static int endpointType(MemorySegment info) {
        MemorySegment i = info.reinterpret(FI_INFO.byteSize());
        return pointee(i, "ep_attr", FI_EP_ATTR).get(JAVA_INT, offset(FI_EP_ATTR, "type"));
    }

    /** The next entry of an {@code fi_info} list, {@link MemorySegment#NULL} at the end. */
    public static MemorySegment next(MemorySegment info) {
        return info.reinterpret(FI_INFO.byteSize()).get(ADDRESS, offset(FI_INFO, "next"));
    }

    private static MemorySegment pointee(MemorySegment s, String field, StructLayout target) {
        MemorySegment p = s.get(ADDRESS, offset(FI_INFO, field));
        if (p.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("libfabric returned an fi_info without " + field);
        }
        return p.reinterpret(target.byteSize());
    }

    private static String string(MemorySegment s, StructLayout layout, String field) {
        MemorySegment p = s.get(ADDRESS, offset(layout, field));
        return p.equals(MemorySegment.NULL) ? "" : p.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    /**
     * Fills hints made by {@code fi_dupinfo(NULL)}: endpoint type, caps, mode 0 (no FI_CONTEXT: contexts are
     * caller-chosen longs), the mr_mode bits the binding honours, and the provider name ({@code strdup}ed, since
     * {@code fi_freeinfo} frees it; BUILD-NOTES section 6).
     */
    static void fillHints(NativeFabric lib, MemorySegment hints, int endpointType, long caps, int mrMode,
            String provider) {
        MemorySegment h = hints.reinterpret(FI_INFO.byteSize());
        h.set(JAVA_LONG, offset(FI_INFO, "caps"), caps);
        h.set(JAVA_LONG, offset(FI_INFO, "mode"), 0L);
        pointee(h, "ep_attr", FI_EP_ATTR).set(JAVA_INT, offset(FI_EP_ATTR, "type"), endpointType);
        pointee(h, "domain_attr", FI_DOMAIN_ATTR).set(JAVA_INT, offset(FI_DOMAIN_ATTR, "mr_mode"), mrMode);
        if (!provider.isEmpty()) {
            pointee(h, "fabric_attr", FI_FABRIC_ATTR).set(ADDRESS, offset(FI_FABRIC_ATTR, "prov_name"),
                    lib.strdup(provider));
        }
    }

    /** The {@code fabric_attr} pointer of an {@code fi_info}, for {@code fi_fabric}. */
    static MemorySegment fabricAttr(MemorySegment info) {
        return info.reinterpret(FI_INFO.byteSize()).get(ADDRESS, offset(FI_INFO, "fabric_attr"));
    }

    /** Fills an {@code fi_cq_attr} for a tagged-format queue. */
    static void fillCqAttr(MemorySegment attr, long size, int waitObject) {
        attr.fill((byte) 0);
        attr.set(JAVA_LONG, offset(FI_CQ_ATTR, "size"), size);
        attr.set(JAVA_INT, offset(FI_CQ_ATTR, "format"), CQ_FORMAT_TAGGED);
        attr.set(JAVA_INT, offset(FI_CQ_ATTR, "wait_obj"), waitObject);
    }

    /** Fills an {@code fi_av_attr}. */
    static void fillAvAttr(MemorySegment attr, int type, long count) {
        attr.fill((byte) 0);
        attr.set(JAVA_INT, offset(FI_AV_ATTR, "type"), type);
        attr.set(JAVA_LONG, offset(FI_AV_ATTR, "count"), count);
    }

    /** A NUL-terminated copy of {@code s} in {@code target}. */
    static MemorySegment cString(MemorySegment target, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(b, 0, target, JAVA_BYTE, 0, b.length);
        target.set(JAVA_BYTE, b.length, (byte) 0);
        return target;
    }
}
