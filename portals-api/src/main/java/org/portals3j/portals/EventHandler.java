package org.portals3j.portals;

/**
 * Portals 3.3 {@code ptl_eq_handler_t} (3.3 &sect;3.11.6): a function a {@link Portals33} event queue runs
 * for each event logged to it, given to {@link Portals33#eqAlloc} (or, an extension, to a 3.2 queue by
 * {@link Portals#eqAlloc(NiHandle, long, EventHandler)}).
 *
 * <h2>When and where it runs</h2>
 * <ul>
 *   <li>Once for every event sent to the queue, when the event is deposited, before any
 *       {@code PtlEQGet}, {@code PtlEQWait} or {@code PtlEQPoll} can take it; the event is deposited in
 *       the queue as well. The 3.3 text, as Lustre's LNet API (derived from it) keeps it: "a handler
 *       function that runs when an event is deposited into the EQ", and "when EQ handler is specified
 *       ... no event loss can happen, since the handler is run for each event deposited". So the handler
 *       also sees an event that a full queue then loses ({@code PTL_EQ_DROPPED} on the next take).</li>
 *   <li>On the thread that logs the event: the transport's delivering thread, or the application's own
 *       thread (its {@code PtlPut}, or a wait that drives the network), with the library's lock held.</li>
 *   <li>The {@link Event} passed in is the library's: valid only during the call. Copy it
 *       ({@link Event#copyFrom}) to keep it.</li>
 * </ul>
 *
 * <h2>What it must not do</h2>
 * The handler "must not block, must be reentrant, and must not call any ... API functions"
 * (LNet's {@code lnet_eq_handler_t}, the 3.3 rule). A Portals function called from a handler fails with
 * {@code PTL_FAIL} instead of running in the middle of another operation. An exception thrown by the
 * handler goes to the thread's uncaught-exception handler; the event is still deposited and the
 * library goes on.
 */
@FunctionalInterface
public interface EventHandler {

    /**
     * {@code PTL_EQ_HANDLER_NONE}: no handler. {@link Portals33#eqAlloc} recognises this instance; it
     * is never called.
     */
    EventHandler NONE = event -> {
    };

    /** Called with each event deposited into the queue; see the interface documentation. */
    void handle(Event event);
}
