package org.portals3j.lapi;

/**
 * {@code lapi_cntr_t}: a counter of one context that communication increments by exactly 1 per event it stands
 * for. Read and set through the context ({@link LapiContext#getcntr}, {@link LapiContext#setcntr},
 * {@link LapiContext#waitcntr}); named from another task by its {@link #address()}.
 */
public final class LapiCounter {
    // lapi-core: the value (in a MemorySegment cell: the context's own for newCounter(), the program's
    // lapi_cntr_t for counterAt()), atomic increment that wakes waiters, address registration.
    LapiCounter() {
        throw new UnsupportedOperationException("lapi-contract: built by lapi-core");
    }

    /** The address other tasks pass as {@code tgt_cntr} to make this counter move (unique in its context). */
    public long address() {
        throw new UnsupportedOperationException("lapi-contract: built by lapi-core");
    }
}
