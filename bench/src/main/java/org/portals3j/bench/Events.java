package org.portals3j.bench;

import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ReturnCode;

/**
 * Taking events in the measured loops without allocating: the caller's {@link Event} is filled in
 * place, and a message is only built when something is wrong (then the run is broken anyway).
 */
final class Events {

    private Events() {
    }

    /** How long {@link #get} polls an empty queue before it gives up (a lost message). */
    static final long GET_TIMEOUT_NANOS = 10_000_000_000L;

    /**
     * Takes the next event with {@code PtlEQGet}; it must be of kind {@code expected}. On inmem the
     * event is there at once (delivery is inline); on an asynchronous transport this polls until it
     * comes.
     */
    static void get(Portals portals, EqHandle eq, Event event, EventKind expected) {
        ReturnCode rc = portals.eqGet(eq, event);
        if (rc == ReturnCode.EQ_EMPTY) {
            rc = poll(portals, eq, event);
        }
        if (rc != ReturnCode.OK || event.type() != expected) {
            throw unexpected(rc, event, expected);
        }
    }

    private static ReturnCode poll(Portals portals, EqHandle eq, Event event) {
        long deadline = System.nanoTime() + GET_TIMEOUT_NANOS;
        ReturnCode rc;
        do {
            Thread.onSpinWait();
            rc = portals.eqGet(eq, event);
        } while (rc == ReturnCode.EQ_EMPTY && System.nanoTime() - deadline < 0);
        return rc;
    }

    /**
     * Waits with {@code PtlEQWait} for the next PUT_END, passing over the PUT_START before it.
     *
     * @param mlength the length the put must have deposited
     */
    static void waitPutEnd(Portals portals, EqHandle eq, Event event, long mlength) {
        while (true) {
            ReturnCode rc = portals.eqWait(eq, event);
            EventKind kind = event.type();
            if (rc != ReturnCode.OK) {
                throw unexpected(rc, event, EventKind.PUT_END);
            }
            if (kind == EventKind.PUT_END) {
                if (event.mlength() != mlength) {
                    throw new IllegalStateException("PUT_END deposited " + event.mlength() + " bytes, expected "
                            + mlength + ": " + event);
                }
                return;
            }
            if (kind != EventKind.PUT_START) {
                throw unexpected(rc, event, EventKind.PUT_END);
            }
        }
    }

    private static IllegalStateException unexpected(ReturnCode rc, Event event, EventKind expected) {
        return new IllegalStateException("expected " + expected.specName() + ", got " + rc
                + (rc == ReturnCode.EQ_EMPTY ? "" : " with " + event));
    }
}
