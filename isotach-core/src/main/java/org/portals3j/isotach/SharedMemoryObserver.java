package org.portals3j.isotach;

/**
 * Sees every shared-memory reference (sRef) a host executes on its copies of Isotach shared memory (Isotach
 * report §3.4, pp. 14-18): the application and the conformance kit install one on every host and check the whole
 * history with {@link SmmHistory}, which implements this interface.
 *
 * <p><b>When it is called.</b> Once per executed sRef, on the host's application thread. Writes, scheds,
 * assigns and reads of a substantiated copy are reported when they execute, in execution order. A read of an
 * unsubstantiated copy pends until the assign with the read's vId executes (Isotach report §3.4, pp. 14-18); its value
 * is known only then, so it is reported then, right after that assign. {@code sequence} therefore carries the execution
 * order: it numbers the sRefs a host executes 0, 1, 2, ... in isotach order (pulse, sender id, issue order;
 * Isotach report §3.3, pp. 10-14), so sorting one host's records by {@code sequence} gives the order in which they
 * executed, including the issue order of one sender's sRefs within one pulse.
 *
 * <p>An sRef the host rejected (an address it holds no copy of, a sender id out of range, a reader over its
 * read cap) has no sequence number and is not reported.
 */
@FunctionalInterface
public interface SharedMemoryObserver {
    /** A read sRef (the report's {@code ISO_READ}, 0x11, Isotach report App. J, utils.h, pp. 169-175). */
    int READ = 0x11;
    /** A write sRef: a sched and its assign issued together ({@code ISO_WRITE}, 0x12). */
    int WRITE = 0x12;
    /** An assign sRef ({@code ISO_ASSIGN}, 0x13). */
    int ASSIGN = 0x13;
    /** A sched sRef ({@code ISO_SCHED}, 0x14). */
    int SCHED = 0x14;

    /**
     * One executed sRef.
     *
     * @param copyHost the host whose copy executed it (the observer's own host)
     * @param sequence its position in that host's execution order, from 0
     * @param pulse the logical time it executed at (for a pending read: the pulse of the read, not the assign)
     * @param source the host that issued it: the reader of a read, the vId of a sched or assign (Isotach report §3.4,
     * pp. 14-18)
     * @param kind {@link #READ}, {@link #WRITE}, {@link #ASSIGN} or {@link #SCHED}
     * @param address the shared address
     * @param operand READ: the reader's lvar slot; WRITE and ASSIGN: the value carried; SCHED: 0
     * @param value READ: the value returned to the reader; WRITE and ASSIGN: the value carried (an assign
     *        whose vId is no longer the variable's stores nothing, but still answers the reads pending on it);
     *        SCHED: the vId it stored, which is {@code source}
     */
    void executed(int copyHost, long sequence, long pulse, int source, int kind, long address, long operand,
            long value);

    /** A readable name of an sRef kind code, for messages. */
    static String kindName(int kind) {
        return switch (kind) {
            case READ -> "READ";
            case WRITE -> "WRITE";
            case ASSIGN -> "ASSIGN";
            case SCHED -> "SCHED";
            default -> "kind 0x" + Integer.toHexString(kind);
        };
    }
}
