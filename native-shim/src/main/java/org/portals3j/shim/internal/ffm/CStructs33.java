package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

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
import org.portals3j.portals.Portals33;
import org.portals3j.shim.internal.ShimProcess;

/**
 * The structs of {@code portals3.h} that Portals 3.3 changed ({@code ptl_ni_limits_t}, {@code ptl_md_t},
 * {@code ptl_event_t}, as the header defines them with {@code PTL_DIALECT_33}) as FFM layouts, and their
 * reading and writing at C addresses, as {@link CStructs} does for 3.2 ({@code ptl_process_id_t} is the
 * same in both). {@code layout_check33.c} prints the C compiler's view and the layout test compares.
 */
public final class CStructs33 {

    public static final StructLayout NI_LIMITS = MemoryLayout.structLayout(
            JAVA_INT.withName("max_mes"),
            JAVA_INT.withName("max_mds"),
            JAVA_INT.withName("max_eqs"),
            JAVA_INT.withName("max_ac_index"),
            JAVA_INT.withName("max_pt_index"),
            JAVA_INT.withName("max_md_iovecs"),
            JAVA_INT.withName("max_me_list"),
            JAVA_INT.withName("max_getput_md")).withName("ptl_ni_limits_t");

    public static final StructLayout MD = MemoryLayout.structLayout(
            ADDRESS.withName("start"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("threshold"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("max_size"),
            JAVA_INT.withName("options"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("user_ptr"),
            JAVA_LONG.withName("eq_handle")).withName("ptl_md_t");

    public static final StructLayout EVENT = MemoryLayout.structLayout(
            JAVA_INT.withName("type"),
            CStructs.PROCESS_ID.withName("initiator"),
            JAVA_INT.withName("uid"),
            JAVA_INT.withName("jid"),
            JAVA_INT.withName("pt_index"),
            JAVA_LONG.withName("match_bits"),
            JAVA_LONG.withName("rlength"),
            JAVA_LONG.withName("mlength"),
            JAVA_LONG.withName("offset"),
            JAVA_LONG.withName("md_handle"),
            MD.withName("md"),
            JAVA_LONG.withName("hdr_data"),
            JAVA_LONG.withName("link"),
            JAVA_INT.withName("ni_fail_type"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("sequence")).withName("ptl_event_t");

    /** Every 3.3 struct, for the layout test. */
    public static final List<StructLayout> ALL = List.of(NI_LIMITS, MD, EVENT);

    private static final long LIM_MES = offset(NI_LIMITS, "max_mes");
    private static final long LIM_MDS = offset(NI_LIMITS, "max_mds");
    private static final long LIM_EQS = offset(NI_LIMITS, "max_eqs");
    private static final long LIM_AC = offset(NI_LIMITS, "max_ac_index");
    private static final long LIM_PT = offset(NI_LIMITS, "max_pt_index");
    private static final long LIM_IOVECS = offset(NI_LIMITS, "max_md_iovecs");
    private static final long LIM_ME_LIST = offset(NI_LIMITS, "max_me_list");
    private static final long LIM_GETPUT = offset(NI_LIMITS, "max_getput_md");

    private static final long MD_START = offset(MD, "start");
    private static final long MD_LENGTH = offset(MD, "length");
    private static final long MD_THRESHOLD = offset(MD, "threshold");
    private static final long MD_MAX_SIZE = offset(MD, "max_size");
    private static final long MD_OPTIONS = offset(MD, "options");
    private static final long MD_USER_PTR = offset(MD, "user_ptr");
    private static final long MD_EQ_HANDLE = offset(MD, "eq_handle");

    private static final long EV_TYPE = offset(EVENT, "type");
    private static final long EV_INITIATOR = offset(EVENT, "initiator");
    private static final long EV_UID = offset(EVENT, "uid");
    private static final long EV_JID = offset(EVENT, "jid");
    private static final long EV_PT_INDEX = offset(EVENT, "pt_index");
    private static final long EV_MATCH_BITS = offset(EVENT, "match_bits");
    private static final long EV_RLENGTH = offset(EVENT, "rlength");
    private static final long EV_MLENGTH = offset(EVENT, "mlength");
    private static final long EV_OFFSET = offset(EVENT, "offset");
    private static final long EV_MD_HANDLE = offset(EVENT, "md_handle");
    private static final long EV_MD = offset(EVENT, "md");
    private static final long EV_HDR_DATA = offset(EVENT, "hdr_data");
    private static final long EV_LINK = offset(EVENT, "link");
    private static final long EV_NI_FAIL_TYPE = offset(EVENT, "ni_fail_type");
    private static final long EV_SEQUENCE = offset(EVENT, "sequence");

    private CStructs33() {
    }

    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(groupElement(field));
    }

    /** The five limits 3.2 has; 3.3's other three are not settable (see {@link #writeLimits}). */
    static NiLimits readLimits(long address) {
        return new NiLimits(CStructs.getInt(address + LIM_MES), CStructs.getInt(address + LIM_MDS),
                CStructs.getInt(address + LIM_EQS), CStructs.getInt(address + LIM_AC),
                CStructs.getInt(address + LIM_PT));
    }

    /**
     * The interface's limits, and 3.3's three more from what this implementation has: {@code max_md_iovecs}
     * 0 ({@code PTL_MD_IOVEC} is not implemented), {@code max_me_list} the longest match list the library
     * allows (its configured limit, never more than {@code max_mes}: A-07), {@code max_getput_md} the longest
     * put MD of {@code PtlGetPut} ({@link Portals33#MAX_GETPUT_MD}).
     * {@code address} 0 (a NULL {@code actual}, legal in 3.3) writes nothing.
     */
    static void writeLimits(long address, NiLimits limits) {
        if (address == 0L) {
            return;
        }
        CStructs.putInt(address + LIM_MES, limits.maxMatchEntries());
        CStructs.putInt(address + LIM_MDS, limits.maxMemDescriptors());
        CStructs.putInt(address + LIM_EQS, limits.maxEventQueues());
        CStructs.putInt(address + LIM_AC, limits.maxAtableIndex());
        CStructs.putInt(address + LIM_PT, limits.maxPtableIndex());
        CStructs.putInt(address + LIM_IOVECS, 0);
        CStructs.putInt(address + LIM_ME_LIST,
                Math.min(ShimProcess.CONFIG.maxMatchListLength(), limits.maxMatchEntries()));
        CStructs.putInt(address + LIM_GETPUT, Portals33.MAX_GETPUT_MD);
    }

    /**
     * The 3.3 {@code ptl_md_t} at {@code address} as the Java API's value: {@code max_size} becomes
     * {@link MemoryDescriptor#maxSize()} (a value beyond {@code Long.MAX_VALUE} stays negative, for the
     * engine to refuse with {@code PTL_MD_ILLEGAL} when {@code PTL_MD_MAX_SIZE} is set); the 3.3 struct has
     * no {@code max_offset}, which a 3.3 library ignores, so it is 0. {@code start} and {@code user_ptr} as
     * in {@link CStructs#readMd}.
     */
    static MemoryDescriptor readMd(long address) {
        long start = CStructs.getLong(address + MD_START);
        long length = CStructs.getLong(address + MD_LENGTH);
        long userPtr = CStructs.getLong(address + MD_USER_PTR);
        MemorySegment region = start == 0L ? MemorySegment.NULL
                : MemorySegment.ofAddress(start).reinterpret(Math.max(length, 0L));
        return new MemoryDescriptor(region, length, CStructs.getInt(address + MD_THRESHOLD), 0L,
                CStructs.getInt(address + MD_OPTIONS), userPtr == 0L ? null : Long.valueOf(userPtr),
                new EqHandle(CStructs.getLong(address + MD_EQ_HANDLE)), CStructs.getLong(address + MD_MAX_SIZE));
    }

    static void writeMd(long address, MemoryDescriptor md) {
        writeMd(address, md.start().address(), md.length(), md.threshold(), md.maxSize(), md.options(), md.userPtr(),
                md.eventq().value());
    }

    private static void writeMd(long address, long start, long length, int threshold, long maxSize, int options,
                                @Nullable Object userPtr, long eqHandle) {
        CStructs.putLong(address + MD_START, start);
        CStructs.putLong(address + MD_LENGTH, length);
        CStructs.putInt(address + MD_THRESHOLD, threshold);
        CStructs.putLong(address + MD_MAX_SIZE, maxSize);
        CStructs.putInt(address + MD_OPTIONS, options);
        CStructs.putLong(address + MD_USER_PTR, userPtr instanceof Long pointer ? pointer : 0L);
        CStructs.putLong(address + MD_EQ_HANDLE, eqHandle);
    }

    /**
     * Writes {@code event} as a 3.3 {@code ptl_event_t}: its kind as 3.3 numbers it
     * ({@link CConstants#eventKind33}), the initiator's {@code jid}; {@code sequence} last, after a fence.
     */
    static void writeEvent(long address, Event event) {
        CStructs.putInt(address + EV_TYPE, CConstants.eventKind33(event.type()));
        CStructs.writeProcessId(address + EV_INITIATOR, event.initiatorNid(), event.initiatorPid());
        CStructs.putInt(address + EV_UID, event.uid());
        CStructs.putInt(address + EV_JID, event.jid());
        CStructs.putInt(address + EV_PT_INDEX, event.portal());
        CStructs.putLong(address + EV_MATCH_BITS, event.matchBits());
        CStructs.putLong(address + EV_RLENGTH, event.rlength());
        CStructs.putLong(address + EV_MLENGTH, event.mlength());
        CStructs.putLong(address + EV_OFFSET, event.offset());
        CStructs.putLong(address + EV_MD_HANDLE, event.mdHandleValue());
        writeMd(address + EV_MD, event.memDescStart().address(), event.memDescLength(), event.memDescThreshold(),
                event.memDescMaxSize(), event.memDescOptions(), event.userPtr(), event.memDescEventqValue());
        CStructs.putLong(address + EV_HDR_DATA, event.hdrData());
        CStructs.putLong(address + EV_LINK, event.link());
        CStructs.putInt(address + EV_NI_FAIL_TYPE, event.niFailType().ordinal());
        VarHandle.releaseFence();
        CStructs.putLong(address + EV_SEQUENCE, event.sequence());
    }
}
