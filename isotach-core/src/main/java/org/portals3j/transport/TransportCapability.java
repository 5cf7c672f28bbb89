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
    NATIVE
}
