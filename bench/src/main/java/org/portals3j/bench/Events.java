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

    /** Takes the next event with {@code PtlEQGet}; it must be there and be of kind {@code expected}. */
    static void get(Portals portals, EqHandle eq, Event event, EventKind expected) {
        ReturnCode rc = portals.eqGet(eq, event);
        if (rc != ReturnCode.OK || event.type() != expected) {
            throw unexpected(rc, event, expected);
        }
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
