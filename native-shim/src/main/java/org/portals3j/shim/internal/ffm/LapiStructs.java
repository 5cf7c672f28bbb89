package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.List;

/**
 * The structs {@code lapi.h} shares with the Java layer ({@code lapi_cntr_t}, {@code lapi_return_info_t},
 * {@code lapi_info_t}) as FFM layouts, and reading and writing their members at C addresses (through
 * {@link CStructs#MEMORY}: nothing is allocated per call). {@code lapi_layout.c} prints the C compiler's view
 * and {@code LapiLayoutTest} compares it with these.
 */
public final class LapiStructs {
    /** {@code lapi_cntr_t}: the 8-byte cell whose first int is the counter's value. */
    public static final StructLayout CNTR = MemoryLayout.structLayout(
            JAVA_INT.withName("cntr"),
            JAVA_INT.withName("lapi_reserved")).withName("lapi_cntr_t");

    /** {@code lapi_return_info_t}: what a header handler's {@code msg_len} points to. */
    public static final StructLayout RETURN_INFO = MemoryLayout.structLayout(
            JAVA_LONG.withName("msg_len"),
            JAVA_INT.withName("ret_flags"),
            JAVA_INT.withName("ctl_flags"),
            ADDRESS.withName("udata_one_pkt_ptr"),
            JAVA_INT.withName("src"),
            JAVA_INT.withName("reason"),
            JAVA_LONG.withName("bytes"),
            ADDRESS.withName("dgsp_handle")).withName("lapi_return_info_t");

    /** {@code lapi_info_t}: {@code num_compl_hndlr_thr} and {@code err_hndlr} are read, the rest ignored. */
    public static final StructLayout INFO = MemoryLayout.structLayout(
            JAVA_INT.withName("protocol"),
            JAVA_INT.withName("lib_vers"),
            JAVA_INT.withName("epoch_num"),
            JAVA_INT.withName("num_compl_hndlr_thr"),
            JAVA_INT.withName("instance_no"),
            JAVA_INT.withName("info6"),
            ADDRESS.withName("err_hndlr"),
            ADDRESS.withName("lapi_thread_attr"),
            ADDRESS.withName("adapter_name"),
            ADDRESS.withName("add_info")).withName("lapi_info_t");

    /** Every shared struct, for the layout test. */
    public static final List<StructLayout> ALL = List.of(CNTR, RETURN_INFO, INFO);

    static final long RI_MSG_LEN = offset(RETURN_INFO, "msg_len");
    static final long RI_RET_FLAGS = offset(RETURN_INFO, "ret_flags");
    static final long RI_CTL_FLAGS = offset(RETURN_INFO, "ctl_flags");
    static final long RI_ONE_PKT = offset(RETURN_INFO, "udata_one_pkt_ptr");
    static final long RI_SRC = offset(RETURN_INFO, "src");
    static final long RI_REASON = offset(RETURN_INFO, "reason");
    static final long RI_BYTES = offset(RETURN_INFO, "bytes");
    static final long RI_DGSP = offset(RETURN_INFO, "dgsp_handle");

    private static final long INFO_THREADS = offset(INFO, "num_compl_hndlr_thr");
    private static final long INFO_ERR_HNDLR = offset(INFO, "err_hndlr");

    private LapiStructs() {
    }

    private static long offset(StructLayout layout, String member) {
        return layout.byteOffset(groupElement(member));
    }

    /** Fills the {@code lapi_return_info_t} at {@code address} for a message; {@code ret_flags} LAPI_NORMAL. */
    static void writeReturnInfo(long address, long msgLen, long onePacket, int src) {
        CStructs.MEMORY.set(JAVA_LONG_UNALIGNED, address + RI_MSG_LEN, msgLen);
        CStructs.MEMORY.set(JAVA_INT_UNALIGNED, address + RI_RET_FLAGS, 0);
        CStructs.MEMORY.set(JAVA_INT_UNALIGNED, address + RI_CTL_FLAGS, 0);
        CStructs.MEMORY.set(JAVA_LONG_UNALIGNED, address + RI_ONE_PKT, onePacket);
        CStructs.MEMORY.set(JAVA_INT_UNALIGNED, address + RI_SRC, src);
        CStructs.MEMORY.set(JAVA_INT_UNALIGNED, address + RI_REASON, 0);
        CStructs.MEMORY.set(JAVA_LONG_UNALIGNED, address + RI_BYTES, msgLen);
        CStructs.MEMORY.set(JAVA_LONG_UNALIGNED, address + RI_DGSP, 0L);
    }

    /** {@code ret_flags} of the {@code lapi_return_info_t} at {@code address}. */
    static int retFlags(long address) {
        return CStructs.MEMORY.get(JAVA_INT_UNALIGNED, address + RI_RET_FLAGS);
    }

    /** {@code ctl_flags} of the {@code lapi_return_info_t} at {@code address}. */
    static int ctlFlags(long address) {
        return CStructs.MEMORY.get(JAVA_INT_UNALIGNED, address + RI_CTL_FLAGS);
    }

    /** {@code num_compl_hndlr_thr} of the {@code lapi_info_t} at {@code address}. */
    static int completionThreads(long address) {
        return CStructs.MEMORY.get(JAVA_INT_UNALIGNED, address + INFO_THREADS);
    }

    /** {@code err_hndlr} of the {@code lapi_info_t} at {@code address} (0 for none). */
    static long errorHandler(long address) {
        return CStructs.MEMORY.get(JAVA_LONG_UNALIGNED, address + INFO_ERR_HNDLR);
    }

    static int readInt(long address) {
        return CStructs.MEMORY.get(JAVA_INT_UNALIGNED, address);
    }

    static void writeInt(long address, int value) {
        CStructs.MEMORY.set(JAVA_INT_UNALIGNED, address, value);
    }

    static long readLong(long address) {
        return CStructs.MEMORY.get(JAVA_LONG_UNALIGNED, address);
    }

    static void writeLong(long address, long value) {
        CStructs.MEMORY.set(JAVA_LONG_UNALIGNED, address, value);
    }
}
