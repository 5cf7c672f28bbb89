package org.portals3j.transport;

/** Properties a transport advertises; the baseline (reliable, exactly-once, per-peer FIFO) is not optional. */
public enum TransportCapability {
    /** All ranks of a job live in one JVM. */
    SINGLE_PROCESS,
    /** Ranks may be separate processes, possibly on separate hosts. */
    MULTI_PROCESS,
    /** The payload moves from the source segment straight into the destination segment (one copy). */
    SINGLE_COPY,
    /** The transport goes through native code (Panama FFM). */
    NATIVE,
    /**
     * {@link Transport#send} hands the message to the target's handler before it returns, unless another
     * thread is delivering to that target at that moment, and then that thread delivers it before it lets
     * go. Once every sending call has returned, nothing is in flight. Tests use it to know that what has not
     * happened will not happen, and that work issued by one call cannot interleave with another's.
     */
    INLINE_DELIVERY,
    /**
     * The endpoint implements {@link Polling} and tells a handler that is a {@link PollingHandler} when the
     * application threads that called {@link Polling#poll} on it have stopped ({@link PollingHandler#onPollersGone}):
     * at once after {@link Polling#pollingStopped}, within a grace of a few milliseconds at most after a stop nobody
     * announced, and within a few tens of milliseconds after a thread whose wait ended ({@link Polling#waitEnded})
     * polls no more. An upper layer may then hold work back for its polling thread, knowing that it will hear when
     * that thread has gone. Only endpoints that implement {@link Polling} advertise it.
     */
    REPORTS_POLLERS_GONE
}
