package org.portals3j.isotach.internal.gc;

/**
 * The five states of a barrier channel at one host (Isotach report §3.5.1, pp. 18-20, C {@code enum barrier_state}
 * Isotach report App. J, api/iso_barrier/locals.h, pp. 223-224). A "barrier credit" is what a host holds between the
 * completion of one execution of the channel and its participation in the next (Isotach report §3.5.1, pp. 18-20).
 */
public enum BarrierState {
    /**
     * Holds a credit and is about to send its bs-marker (enqueue pending). Owner application or not
     * (Isotach report §3.5.1, pp. 18-20).
     */
    SEND,
    /**
     * Holds a credit; sends only when its owner asks (application {@code iso_barrier}, mLayer barrier)
     * (Isotach report §3.5.1, pp. 18-20).
     */
    HOLDING,
    /**
     * Has sent its bs-marker; the execution has not completed yet. Owner application or not (Isotach report §3.5.1,
     * pp. 18-20).
     */
    NOT_HOLDING,
    /**
     * Registered by the application while an execution it joined as unclaimed is still outstanding; the host
     * does not learn when that old execution completes, so it waits for it here (Isotach report §3.5.1, pp. 18-20).
     */
    TRANSITION,
    /**
     * As {@link #TRANSITION}, and the application has already called {@code iso_barrier} (Isotach report §3.5.1,
     * pp. 18-20).
     */
    READY
}
