package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;

/**
 * A LAPI context ({@code lapi_handle_t}): one task of a job, on the Portals library of its rank. Every LAPI call
 * is a method; a failure is a {@link LapiException} carrying the man page's code, decided before anything is sent
 * (LAPI_Amsend man page, Return values). Out-arguments are return values. See the package documentation for the table
 * from LAPI function to method and for every choice the man pages leave open.
 */
public final class LapiContext implements AutoCloseable {
    private final LapiConfig config;
    private final Engine engine;
    private int handle = -1;
    private final Object termLock = new Object();
    private volatile boolean terminated;

    private LapiContext(Engine engine, LapiConfig config) {
        this.config = config;
        this.engine = engine;
    }

    /**
     * {@code LAPI_Init}: a context on {@code portals} (the library of this rank; PtlInit and PtlNIInit on the
     * default interface are called as needed, so the program may use Portals beside LAPI). Collective in the
     * sense that messages to a task wait (flow control) until that task has initialised.
     */
    public static LapiContext init(Portals portals, LapiConfig config) {
        Objects.requireNonNull(portals, "portals: the Portals library of this rank");
        if (config == null) {
            throw new LapiException(LapiError.INFO_NULL, "LAPI_Init needs a LapiConfig: pass LapiConfig.DEFAULT");
        }
        Engine engine;
        try {
            engine = new Engine(portals, config);
        } catch (PortalsException e) {
            throw new LapiException(LapiError.MEMORY_EXHAUSTED, "LAPI_Init could not set up its Portals resources ("
                    + e.getMessage() + "); check that portals " + config.firstPortal() + " and "
                    + (config.firstPortal() + 1) + " are free and within the interface's limits", e);
        }
        LapiContext context = new LapiContext(engine, config);
        try {
            context.handle = Handles.register(context);
        } catch (LapiException e) {
            engine.stop();
            throw e;
        }
        engine.bind(context);
        engine.start();
        return context;
    }

    /** The context with C handle {@code handle}; {@link LapiError#HNDL_INVALID} if none (never, or terminated). */
    public static LapiContext ofHandle(int handle) {
        LapiContext c = Handles.find(handle);
        if (c == null || c.terminated) {
            throw new LapiException(LapiError.HNDL_INVALID, "handle " + handle + " was never returned by LAPI_Init"
                    + " or has been terminated");
        }
        return c;
    }

    /** The protocol engine (for tests). */
    Engine engine() {
        return engine;
    }

    /** {@code lapi_handle_t}: the small integer the C binding gives programs. */
    public int handle() {
        return handle;
    }

    /**
     * {@code LAPI_Term}: quiesces (a Gfence's worth of data delivery from this task), stops the threads, releases the
     * Portals resources. Every later call, with this object or its handle, fails with {@code HNDL_INVALID}.
     */
    public void term() {
        live("LAPI_Term");
        engine.progress.checkMayBlock("LAPI_Term");
        synchronized (termLock) {
            live("LAPI_Term");
            engine.awaitDelivered("LAPI_Term");
            terminated = true;
            Handles.release(handle, this);
            engine.stop();
        }
    }

    /** {@link #term()}; a second close does nothing. */
    @Override
    public void close() {
        if (!terminated) {
            term();
        }
    }

    /** {@code LAPI_Qenv}. */
    public long qenv(LapiQuery query) {
        live("LAPI_Qenv");
        if (query == null) {
            throw new LapiException(LapiError.QUERY_TYPE, "LAPI_Qenv needs a query (a LapiQuery)");
        }
        return switch (query) {
            case TASK_ID -> engine.endpoint.self;
            case NUM_TASKS -> engine.endpoint.tasks;
            case MAX_UHDR_SZ -> config.maxUhdr();
            case MAX_DATA_SZ -> config.maxData();
            case LOC_ADDRTBL_SZ -> config.addressTableSize();
            case ERROR_CHK -> 1;
            case INTERRUPT_SET -> config.interruptMode() ? 1 : 0;
            case PKT_PAYLOAD_SZ -> config.packetPayload();
        };
    }

    /** {@code LAPI_Senv}: {@code QUERY_TYPE} for a read-only query, {@code SET_VAL} for a value it refuses. */
    public void senv(LapiQuery query, long value) {
        live("LAPI_Senv");
        if (query == null) {
            throw new LapiException(LapiError.QUERY_TYPE, "LAPI_Senv needs a query (a LapiQuery)");
        }
        switch (query) {
            case ERROR_CHK -> {
                if (value != 1) {
                    throw new LapiException(LapiError.SET_VAL, "ERROR_CHK: this implementation always checks"
                            + " parameters; only 1 is accepted");
                }
            }
            case INTERRUPT_SET -> {
                if (value != qenv(LapiQuery.INTERRUPT_SET)) {
                    throw new LapiException(LapiError.SET_VAL, "INTERRUPT_SET is chosen at LAPI_Init"
                            + " (LapiConfig.interruptMode); it cannot change afterwards");
                }
            }
            default -> throw new LapiException(LapiError.QUERY_TYPE, query + " is read-only: LAPI_Senv sets only"
                    + " ERROR_CHK and INTERRUPT_SET");
        }
    }

    /** {@code Qenv(TASK_ID)}. */
    public int taskId() {
        return engine.endpoint.self;
    }

    /** {@code Qenv(NUM_TASKS)}. */
    public int numTasks() {
        return engine.endpoint.tasks;
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
        live("LAPI_Amsend");
        checkTarget(tgt, "LAPI_Amsend");
        if (hdrHdl == 0) {
            throw new LapiException(LapiError.HDR_HNDLR_NULL, "LAPI_Amsend: hdr_hdl is NULL; pass an Addr_set index"
                    + " or an address from LAPI_Address_init");
        }
        if (uhdr == null && uhdrLen != 0) {
            throw new LapiException(LapiError.UHDR_NULL, "LAPI_Amsend: uhdr is NULL but uhdr_len is " + uhdrLen);
        }
        if (uhdrLen < 0 || uhdrLen > config.maxUhdr() || uhdrLen % config.uhdrAlign() != 0) {
            throw new LapiException(LapiError.UHDR_LEN, "LAPI_Amsend: uhdr_len " + uhdrLen + " must be a multiple of "
                    + config.uhdrAlign() + " in 0.." + config.maxUhdr() + " (Qenv MAX_UHDR_SZ)");
        }
        if (udata == null && udataLen > 0) {
            throw new LapiException(LapiError.ORG_ADDR_NULL, "LAPI_Amsend: udata is NULL but udata_len is "
                    + udataLen);
        }
        checkDataLength(udataLen, "LAPI_Amsend: udata_len");
        checkSize(uhdr, uhdrLen, "uhdr");
        checkSize(udata, udataLen, "udata");
        engine.amsend(tgt, hdrHdl, uhdr, uhdrLen, udata, udataLen, tgtCntr, orgCntr, cmplCntr);
    }

    /**
     * {@code LAPI_Put}: {@code len} bytes of {@code orgAddr} to the target's {@code tgtAddr} (an address from the
     * target's {@link #expose} or resolver). Counters as in {@link #amsend}, {@code cmplCntr} when the data is in
     * place at the target. Codes in parameter order: HNDL_INVALID, TGT, DATA_LEN, TGT_ADDR_NULL, ORG_ADDR_NULL.
     */
    public void put(int tgt, long len, long tgtAddr, @Nullable MemorySegment orgAddr, long tgtCntr,
                    @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr) {
        checkTransfer("LAPI_Put", tgt, len, tgtAddr, orgAddr);
        engine.put(tgt, len, tgtAddr, orgAddr, tgtCntr, orgCntr, cmplCntr);
    }

    /**
     * {@code LAPI_Get}: {@code len} bytes at the target's {@code tgtAddr} into {@code orgAddr}; {@code orgCntr}
     * when they have arrived, {@code tgtCntr} (on the target) when the target buffer is no longer needed. Codes as
     * {@link #put}.
     */
    public void get(int tgt, long len, long tgtAddr, @Nullable MemorySegment orgAddr, long tgtCntr,
                    @Nullable LapiCounter orgCntr) {
        checkTransfer("LAPI_Get", tgt, len, tgtAddr, orgAddr);
        engine.get(tgt, len, tgtAddr, orgAddr, tgtCntr, orgCntr);
    }

    private void checkTransfer(String call, int tgt, long len, long tgtAddr, @Nullable MemorySegment orgAddr) {
        live(call);
        checkTarget(tgt, call);
        checkDataLength(len, call + ": len");
        if (tgtAddr == 0 && len > 0) {
            throw new LapiException(LapiError.TGT_ADDR_NULL, call + ": tgt_addr is NULL but len is " + len);
        }
        if (orgAddr == null && len > 0) {
            throw new LapiException(LapiError.ORG_ADDR_NULL, call + ": org_addr is NULL but len is " + len);
        }
        checkSize(orgAddr, len, "org_addr");
    }

    /** A new counter of this context, at 0 (a Java program's {@code lapi_cntr_t}). */
    public LapiCounter newCounter() {
        live("newCounter");
        return engine.addresses.newCounter();
    }

    /**
     * The counter whose value lives in {@code cell} (8 bytes, the C program's {@code lapi_cntr_t}): the same object
     * for the same address; its {@link LapiCounter#address()} is {@code cell.address()}.
     */
    public LapiCounter counterAt(MemorySegment cell) {
        live("counterAt");
        if (cell.byteSize() < 8 || cell.address() % 4 != 0 || cell.isReadOnly()) {
            throw new IllegalArgumentException("a counter cell is 8 writable bytes aligned to 4, not " + cell);
        }
        return engine.addresses.counterAt(cell);
    }

    /** {@code LAPI_Setcntr}: {@code CNTR_NULL} for a null counter. */
    public void setcntr(@Nullable LapiCounter counter, int value) {
        live("LAPI_Setcntr");
        counter(counter, "LAPI_Setcntr").set(value);
    }

    /** {@code LAPI_Getcntr}: the value; {@code CNTR_NULL} for a null counter. In polling mode it makes progress. */
    public int getcntr(@Nullable LapiCounter counter) {
        live("LAPI_Getcntr");
        LapiCounter c = counter(counter, "LAPI_Getcntr");
        if (engine.progress.polling()) {
            engine.progress.poll();
        }
        return c.value();
    }

    /**
     * {@code LAPI_Waitcntr}: waits until the counter is at least {@code value}, subtracts {@code value} and returns
     * what is left ({@code cur_cntr_val}). {@code CNTR_NULL}; {@code BLOCKING_IN_HANDLER} on the dispatcher thread.
     */
    public int waitcntr(@Nullable LapiCounter counter, int value) {
        live("LAPI_Waitcntr");
        LapiCounter c = counter(counter, "LAPI_Waitcntr");
        int left = c.tryTake(value);
        if (left != Integer.MIN_VALUE) {
            return left;
        }
        engine.progress.checkMayBlock("LAPI_Waitcntr");
        return engine.progress.awaitTake(c, value, "LAPI_Waitcntr");
    }

    private static LapiCounter counter(@Nullable LapiCounter counter, String call) {
        if (counter == null) {
            throw new LapiException(LapiError.CNTR_NULL, call + ": the counter is NULL");
        }
        return counter;
    }

    /** {@code LAPI_Fence}: every earlier Amsend, Put and Get of this task has its data delivered (a data fence). */
    public void fence() {
        live("LAPI_Fence");
        engine.progress.checkMayBlock("LAPI_Fence");
        engine.awaitDelivered("LAPI_Fence");
    }

    /** {@code LAPI_Gfence}: a barrier of all tasks, after which every task's earlier data transfers are delivered. */
    public void gfence() {
        live("LAPI_Gfence");
        engine.progress.checkMayBlock("LAPI_Gfence");
        engine.awaitDelivered("LAPI_Gfence");
        engine.collectives.barrier("LAPI_Gfence");
    }

    /** {@code LAPI_Addr_set}: registers {@code handler} at {@code index} (null clears it); {@code ADDR_HNDL_RANGE}. */
    public void addrSet(@Nullable HeaderHandler handler, int index) {
        live("LAPI_Addr_set");
        checkIndex(index, "LAPI_Addr_set");
        engine.addresses.set(index, handler);
    }

    /** {@code LAPI_Addr_get}: the handler at {@code index}, or null; {@code ADDR_HNDL_RANGE}. */
    public @Nullable HeaderHandler addrGet(int index) {
        live("LAPI_Addr_get");
        checkIndex(index, "LAPI_Addr_get");
        return engine.addresses.get(index);
    }

    private void checkIndex(int index, String call) {
        if (index < 1 || index >= config.addressTableSize()) {
            throw new LapiException(LapiError.ADDR_HNDL_RANGE, call + ": index " + index + " is outside 1.."
                    + (config.addressTableSize() - 1) + " (Qenv LOC_ADDRTBL_SZ - 1)");
        }
    }

    /**
     * {@code LAPI_Address_init}: collective; fills {@code table[i]} with task i's {@code myAddr} (0 allowed) and
     * returns when every task has called it. {@code RET_PTR_NULL} for a null table, IndexOutOfBounds if shorter
     * than NUM_TASKS.
     */
    public void addressInit(long myAddr, long @Nullable [] table) {
        live("LAPI_Address_init");
        if (table == null) {
            throw new LapiException(LapiError.RET_PTR_NULL, "LAPI_Address_init: add_tab is NULL");
        }
        if (table.length < numTasks()) {
            throw new IndexOutOfBoundsException("LAPI_Address_init: add_tab has " + table.length + " entries, "
                    + "NUM_TASKS is " + numTasks());
        }
        engine.progress.checkMayBlock("LAPI_Address_init");
        engine.collectives.exchange(myAddr, table, "LAPI_Address_init");
    }

    /** The address of a local header handler, for other tasks' {@code hdr_hdl} (the same one for the same object). */
    public long address(HeaderHandler handler) {
        live("address");
        Objects.requireNonNull(handler, "handler");
        return engine.addresses.address(handler);
    }

    /**
     * Makes {@code region} a target of other tasks' Put and Get, and returns its address; {@code address + k} is
     * its byte k. (C programs' memory is made reachable by the C binding's resolver.) A read-only region takes
     * Gets only.
     */
    public long expose(MemorySegment region) {
        live("expose");
        Objects.requireNonNull(region, "region");
        return engine.addresses.expose(region);
    }

    /**
     * {@code LAPI_Probe}: in polling mode ({@code INTERRUPT_SET} 0) runs the dispatcher on the caller's thread until
     * nothing is left to do; in interrupt mode it returns at once.
     */
    public void probe() {
        live("LAPI_Probe");
        engine.progress.poll();
    }

    /** {@code LAPI_Purge_totask}: cancels what waits to go to {@code tgt}; those calls fail with TGT_PURGED. */
    public void purgeToTask(int tgt) {
        live("LAPI_Purge_totask");
        checkTarget(tgt, "LAPI_Purge_totask");
        engine.flow.purge(tgt);
    }

    /**
     * How many calls of this context wait for flow-control credit to {@code tgt} now: this implementation's extension
     * (LAPI has no such query), for tools and for tests that must see a call waiting before they release it.
     */
    public int creditWaiters(int tgt) {
        checkTarget(tgt, "creditWaiters");
        return engine.flow.waiting(tgt);
    }

    /** The ring buffers this task's endpoint has attached so far, first attaches and re-posts ({@link Endpoint}). */
    long ringAttaches() {
        return engine.endpoint.ringAttaches();
    }

    private void live(String call) {
        if (terminated) {
            throw new LapiException(LapiError.HNDL_INVALID, call + ": the context (handle " + handle + ") has been"
                    + " terminated");
        }
    }

    private void checkTarget(int tgt, String call) {
        if (tgt < 0 || tgt >= numTasks()) {
            throw new LapiException(LapiError.TGT, call + ": tgt " + tgt + " is outside 0.." + (numTasks() - 1));
        }
    }

    private void checkDataLength(long len, String what) {
        if (len < 0 || len > config.maxData()) {
            throw new LapiException(LapiError.DATA_LEN, what + " " + len + " is outside 0.." + config.maxData()
                    + " (Qenv MAX_DATA_SZ)");
        }
    }

    private static void checkSize(@Nullable MemorySegment s, long len, String what) {
        if (s != null && s.byteSize() < len) {
            throw new IndexOutOfBoundsException(what + " has " + s.byteSize() + " bytes, fewer than the length "
                    + len);
        }
    }

    @Override
    public String toString() {
        return "LapiContext[task " + engine.endpoint.self + " of " + engine.endpoint.tasks + ", handle " + handle
                + (terminated ? ", terminated" : "") + "]";
    }
}
