package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Portals;

/**
 * A LAPI context ({@code lapi_handle_t}): one task of a job, on the Portals library of its rank. Every LAPI call
 * is a method; a failure is a {@link LapiException} carrying the man page's code, decided before anything is sent
 * (lapi-digest.md 1.9). Out-arguments are return values. See the package documentation for the table from LAPI
 * function to method and for every choice the man pages leave open.
 */
public final class LapiContext implements AutoCloseable {
    // lapi-core: everything below. The bodies of this contract throw; the signatures and their docs are the
    // contract the C binding (lapi-c) and the kit (lapi-kit) build on. Change a signature only with the lead.

    private LapiContext() {
    }

    /**
     * {@code LAPI_Init}: a context on {@code portals} (the library of this rank; PtlInit and PtlNIInit on the
     * default interface are called as needed, so the program may use Portals beside LAPI). Collective in the
     * sense that messages to a task wait (flow control) until that task has initialised.
     */
    public static LapiContext init(Portals portals, LapiConfig config) {
        throw new UnsupportedOperationException();
    }

    /** The context with C handle {@code handle}; {@link LapiError#HNDL_INVALID} if none (never, or terminated). */
    public static LapiContext ofHandle(int handle) {
        throw new UnsupportedOperationException();
    }

    /** {@code lapi_handle_t}: the small integer the C binding gives programs. */
    public int handle() {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Term}: quiesces (a Gfence's worth of data delivery from this task), stops the threads, releases the
     * Portals resources. Every later call, with this object or its handle, fails with {@code HNDL_INVALID}.
     */
    public void term() {
        throw new UnsupportedOperationException();
    }

    /** {@link #term()}; a second close does nothing. */
    @Override
    public void close() {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Qenv}. */
    public long qenv(LapiQuery query) {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Senv}: {@code QUERY_TYPE} for a read-only query, {@code SET_VAL} for a value it refuses. */
    public void senv(LapiQuery query, long value) {
        throw new UnsupportedOperationException();
    }

    /** {@code Qenv(TASK_ID)}. */
    public int taskId() {
        throw new UnsupportedOperationException();
    }

    /** {@code Qenv(NUM_TASKS)}. */
    public int numTasks() {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Amsend}. Codes in parameter order (O-07): HNDL_INVALID, TGT, HDR_HNDLR_NULL, UHDR_NULL, UHDR_LEN,
     * ORG_ADDR_NULL, DATA_LEN; TGT_PURGED if a purge releases it while it waits for flow control. A segment shorter
     * than its length is an {@link IndexOutOfBoundsException} (O-12).
     *
     * @param hdrHdl   the target's header handler: an Addr_set index, or an address from {@link #address}
     *                 (usually through {@link #addressInit}); 0 is NULL
     * @param tgtCntr  the address of a counter on the target, 0 for none
     * @param orgCntr  incremented when {@code uhdr} and {@code udata} may be reused; null for none
     * @param cmplCntr incremented when the target has run the completion handler and incremented {@code tgtCntr};
     *                 null for none
     */
    public void amsend(int tgt, long hdrHdl, @Nullable MemorySegment uhdr, int uhdrLen, @Nullable MemorySegment udata,
                       long udataLen, long tgtCntr, @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr) {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Put}: {@code len} bytes of {@code orgAddr} to the target's {@code tgtAddr} (an address from the
     * target's {@link #expose} or resolver). Counters as in {@link #amsend}, {@code cmplCntr} when the data is in
     * place at the target.
     */
    public void put(int tgt, long len, long tgtAddr, @Nullable MemorySegment orgAddr, long tgtCntr,
                    @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr) {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Get}: {@code len} bytes at the target's {@code tgtAddr} into {@code orgAddr}; {@code orgCntr}
     * when they have arrived, {@code tgtCntr} (on the target) when the target buffer is no longer needed.
     */
    public void get(int tgt, long len, long tgtAddr, @Nullable MemorySegment orgAddr, long tgtCntr,
                    @Nullable LapiCounter orgCntr) {
        throw new UnsupportedOperationException();
    }

    /** A new counter of this context, at 0 (a Java program's {@code lapi_cntr_t}). */
    public LapiCounter newCounter() {
        throw new UnsupportedOperationException();
    }

    /**
     * The counter whose value lives in {@code cell} (8 bytes, the C program's {@code lapi_cntr_t}): the same object
     * for the same address; its {@link LapiCounter#address()} is {@code cell.address()}.
     */
    public LapiCounter counterAt(MemorySegment cell) {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Setcntr}: {@code CNTR_NULL} for a null counter. */
    public void setcntr(@Nullable LapiCounter counter, int value) {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Getcntr}: the value; {@code CNTR_NULL} for a null counter. */
    public int getcntr(@Nullable LapiCounter counter) {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Waitcntr}: waits until the counter is at least {@code value}, subtracts {@code value} and returns
     * what is left ({@code cur_cntr_val}). {@code CNTR_NULL}; {@code BLOCKING_IN_HANDLER} on the dispatcher thread.
     */
    public int waitcntr(@Nullable LapiCounter counter, int value) {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Fence}: every earlier Amsend, Put and Get of this task has its data delivered (a data fence). */
    public void fence() {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Gfence}: a barrier of all tasks, after which every task's earlier data transfers are delivered. */
    public void gfence() {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Addr_set}: registers {@code handler} at {@code index} (null clears it); {@code ADDR_HNDL_RANGE}. */
    public void addrSet(@Nullable HeaderHandler handler, int index) {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Addr_get}: the handler at {@code index}, or null; {@code ADDR_HNDL_RANGE}. */
    public @Nullable HeaderHandler addrGet(int index) {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Address_init}: collective; fills {@code table[i]} with task i's {@code myAddr} (0 allowed) and
     * returns when every task has called it. {@code RET_PTR_NULL} for a null table, IndexOutOfBounds if shorter
     * than NUM_TASKS.
     */
    public void addressInit(long myAddr, long @Nullable [] table) {
        throw new UnsupportedOperationException();
    }

    /** The address of a local header handler, for other tasks' {@code hdr_hdl} (the same one for the same object). */
    public long address(HeaderHandler handler) {
        throw new UnsupportedOperationException();
    }

    /**
     * Makes {@code region} a target of other tasks' Put and Get, and returns its address; {@code address + k} is
     * its byte k. (C programs' memory is made reachable by the C binding's resolver.)
     */
    public long expose(MemorySegment region) {
        throw new UnsupportedOperationException();
    }

    /**
     * {@code LAPI_Probe}: in polling mode ({@code INTERRUPT_SET} 0) runs the dispatcher on the caller's thread until
     * nothing is left to do; in interrupt mode it returns at once.
     */
    public void probe() {
        throw new UnsupportedOperationException();
    }

    /** {@code LAPI_Purge_totask}: cancels what waits to go to {@code tgt}; those calls fail with TGT_PURGED. */
    public void purgeToTask(int tgt) {
        throw new UnsupportedOperationException();
    }
}
