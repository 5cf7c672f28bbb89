package org.portals3j.isotach.internal.gc;

/**
 * The five states of a barrier channel at one host (report §3.5.1 L478-490, C {@code enum barrier_state}
 * L10065-10067). A "barrier credit" is what a host holds between the completion of one execution of the
 * channel and its participation in the next (L473, L482-484).
 */
public enum BarrierState {
    /** Holds a credit and is about to send its bs-marker (enqueue pending). Owner application or not (L484). */
    SEND,
    /** Holds a credit; sends only when its owner asks (application {@code iso_barrier}, mLayer barrier) (L486). */
    HOLDING,
    /** Has sent its bs-marker; the execution has not completed yet. Owner application or not (L482). */
    NOT_HOLDING,
    /**
     * Registered by the application while an execution it joined as unclaimed is still outstanding; the host
     * does not learn when that old execution completes, so it waits for it here (L488).
     */
    TRANSITION,
    /** As {@link #TRANSITION}, and the application has already called {@code iso_barrier} (L490). */
    READY
}
