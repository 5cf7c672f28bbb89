package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiLimits;

/**
 * The structs {@code portals3.h} shares with the engine ({@code ptl_process_id_t}, {@code ptl_ni_limits_t},
 * {@code ptl_md_t}, {@code ptl_event_t}) as FFM layouts, and the reading and writing of them at C
 * addresses, as the Portals 3.2 header defines them (the 3.3 ones are {@link CStructs33}'s). Field names
 * are the header's; {@code layout_check.c} prints the C compiler's {@code sizeof}/{@code offsetof} of every
 * field and the layout test compares them with these.
 *
 * <p>C memory is reached through one segment spanning the address space ({@link #MEMORY}), at the
 * address the C side passed: no segment is made per call, so the event and MD paths allocate nothing.
 * Accesses are unaligned-tolerant (a C program may hand over a packed copy).
 */
public final class CStructs {
    /** The whole address space: C pointers are offsets into it. */
    static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    public static final StructLayout PROCESS_ID = MemoryLayout.structLayout(
            JAVA_INT.withName("nid"),
            JAVA_INT.withName("pid")).withName("ptl_process_id_t");

    public static final StructLayout NI_LIMITS = MemoryLayout.structLayout(
            JAVA_INT.withName("max_match_entries"),
            JAVA_INT.withName("max_mem_descriptors"),
            JAVA_INT.withName("max_event_queues"),
            JAVA_INT.withName("max_atable_index"),
            JAVA_INT.withName("max_ptable_index")).withName("ptl_ni_limits_t");

    public static final StructLayout MD = MemoryLayout.structLayout(
            ADDRESS.withName("start"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("threshold"),
            JAVA_INT.withName("max_offset"),
            JAVA_INT.withName("options"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("user_ptr"),
            JAVA_LONG.withName("eventq")).withName("ptl_md_t");

    public static final StructLayout EVENT = MemoryLayout.structLayout(
            JAVA_INT.withName("type"),
            PROCESS_ID.withName("initiator"),
            JAVA_INT.withName("uid"),
            JAVA_INT.withName("portal"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("match_bits"),
            JAVA_LONG.withName("rlength"),
            JAVA_LONG.withName("mlength"),
            JAVA_LONG.withName("offset"),
            JAVA_LONG.withName("md_handle"),
            MD.withName("mem_desc"),
            JAVA_LONG.withName("hdr_data"),
            JAVA_LONG.withName("link"),
            JAVA_INT.withName("ni_fail_type"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("sequence")).withName("ptl_event_t");

    /** Every shared struct, for the layout test. */
    public static final List<StructLayout> ALL = List.of(PROCESS_ID, NI_LIMITS, MD, EVENT);

    private static final long PID_NID = offset(PROCESS_ID, "nid");
    private static final long PID_PID = offset(PROCESS_ID, "pid");

    private static final long LIM_ME = offset(NI_LIMITS, "max_match_entries");
    private static final long LIM_MD = offset(NI_LIMITS, "max_mem_descriptors");
    private static final long LIM_EQ = offset(NI_LIMITS, "max_event_queues");
    private static final long LIM_AT = offset(NI_LIMITS, "max_atable_index");
    private static final long LIM_PT = offset(NI_LIMITS, "max_ptable_index");

    private static final long MD_START = offset(MD, "start");
    private static final long MD_LENGTH = offset(MD, "length");
    private static final long MD_THRESHOLD = offset(MD, "threshold");
    private static final long MD_MAX_OFFSET = offset(MD, "max_offset");
    private static final long MD_OPTIONS = offset(MD, "options");
    private static final long MD_USER_PTR = offset(MD, "user_ptr");
    private static final long MD_EVENTQ = offset(MD, "eventq");

    private static final long EV_TYPE = offset(EVENT, "type");
    private static final long EV_INITIATOR = offset(EVENT, "initiator");
    private static final long EV_UID = offset(EVENT, "uid");
    private static final long EV_PORTAL = offset(EVENT, "portal");
    private static final long EV_MATCH_BITS = offset(EVENT, "match_bits");
    private static final long EV_RLENGTH = offset(EVENT, "rlength");
    private static final long EV_MLENGTH = offset(EVENT, "mlength");
    private static final long EV_OFFSET = offset(EVENT, "offset");
    private static final long EV_MD_HANDLE = offset(EVENT, "md_handle");
    private static final long EV_MEM_DESC = offset(EVENT, "mem_desc");
    private static final long EV_HDR_DATA = offset(EVENT, "hdr_data");
    private static final long EV_LINK = offset(EVENT, "link");
    private static final long EV_NI_FAIL_TYPE = offset(EVENT, "ni_fail_type");
    private static final long EV_SEQUENCE = offset(EVENT, "sequence");

    private CStructs() {
    }

    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(groupElement(field));
    }

    // ---- scalars at C addresses -------------------------------------------------------------------

    static void putInt(long address, int value) {
        MEMORY.set(JAVA_INT_UNALIGNED, address, value);
    }

    static void putLong(long address, long value) {
        MEMORY.set(JAVA_LONG_UNALIGNED, address, value);
    }

    static int getInt(long address) {
        return MEMORY.get(JAVA_INT_UNALIGNED, address);
    }

    static long getLong(long address) {
        return MEMORY.get(JAVA_LONG_UNALIGNED, address);
    }

    // ---- structs --------------------------------------------------------------------------------------

    static void writeProcessId(long address, int nid, int pid) {
        putInt(address + PID_NID, nid);
        putInt(address + PID_PID, pid);
    }

    static NiLimits readLimits(long address) {
        return new NiLimits(getInt(address + LIM_ME), getInt(address + LIM_MD), getInt(address + LIM_EQ),
                getInt(address + LIM_AT), getInt(address + LIM_PT));
    }

    static void writeLimits(long address, NiLimits limits) {
        putInt(address + LIM_ME, limits.maxMatchEntries());
        putInt(address + LIM_MD, limits.maxMemDescriptors());
        putInt(address + LIM_EQ, limits.maxEventQueues());
        putInt(address + LIM_AT, limits.maxAtableIndex());
        putInt(address + LIM_PT, limits.maxPtableIndex());
    }

    /**
     * The {@code ptl_md_t} at {@code address} as the Java API's value. {@code start} becomes a segment over
     * the C memory itself ({@code start[0, length)}), so the engine deposits into and sends from the
     * program's memory; a {@code NULL} start stays {@link MemorySegment#NULL} and a length beyond
     * {@code Long.MAX_VALUE} stays negative, for the engine to refuse with {@code PTL_ILL_MD}.
     * {@code user_ptr} is kept as its address ({@code Long}; null for {@code NULL}) and given back unchanged.
     */
    static MemoryDescriptor readMd(long address) {
        long start = getLong(address + MD_START);
        long length = getLong(address + MD_LENGTH);
        long userPtr = getLong(address + MD_USER_PTR);
        MemorySegment region = start == 0L ? MemorySegment.NULL
                : MemorySegment.ofAddress(start).reinterpret(Math.max(length, 0L));
        return new MemoryDescriptor(region, length, getInt(address + MD_THRESHOLD),
                CConstants.maxOffsetFromC(getInt(address + MD_MAX_OFFSET)), getInt(address + MD_OPTIONS),
                userPtr == 0L ? null : Long.valueOf(userPtr), new EqHandle(getLong(address + MD_EVENTQ)));
    }

    static void writeMd(long address, MemoryDescriptor md) {
        writeMd(address, md.start().address(), md.length(), md.threshold(), md.maxOffset(), md.options(),
                md.userPtr(), md.eventq().value());
    }

    private static void writeMd(long address, long start, long length, int threshold, long maxOffset, int options,
                                @Nullable Object userPtr, long eventq) {
        putLong(address + MD_START, start);
        putLong(address + MD_LENGTH, length);
        putInt(address + MD_THRESHOLD, threshold);
        putInt(address + MD_MAX_OFFSET, CConstants.maxOffsetToC(maxOffset));
        putInt(address + MD_OPTIONS, options);
        putLong(address + MD_USER_PTR, userPtr instanceof Long pointer ? pointer : 0L);
        putLong(address + MD_EVENTQ, eventq);
    }

    /**
     * Writes {@code event} as a {@code ptl_event_t}; {@code sequence} last, after a fence (Portals 3.2 spec §3.9.4).
     */
    static void writeEvent(long address, Event event) {
        putInt(address + EV_TYPE, event.type().ordinal());
        writeProcessId(address + EV_INITIATOR, event.initiatorNid(), event.initiatorPid());
        putInt(address + EV_UID, event.uid());
        putInt(address + EV_PORTAL, event.portal());
        putLong(address + EV_MATCH_BITS, event.matchBits());
        putLong(address + EV_RLENGTH, event.rlength());
        putLong(address + EV_MLENGTH, event.mlength());
        putLong(address + EV_OFFSET, event.offset());
        putLong(address + EV_MD_HANDLE, event.mdHandleValue());
        writeMd(address + EV_MEM_DESC, event.memDescStart().address(), event.memDescLength(),
                event.memDescThreshold(), event.memDescMaxOffset(), event.memDescOptions(), event.userPtr(),
                event.memDescEventqValue());
        putLong(address + EV_HDR_DATA, event.hdrData());
        putLong(address + EV_LINK, event.link());
        putInt(address + EV_NI_FAIL_TYPE, event.niFailType().ordinal());
        VarHandle.releaseFence();
        putLong(address + EV_SEQUENCE, event.sequence());
    }
}
