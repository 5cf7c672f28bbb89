package org.portals3j.transport;

/**
 * A {@link MessageHandler} that hears when the application threads polling its endpoint ({@link Polling}) have gone.
 * Endpoints that advertise {@link TransportCapability#REPORTS_POLLERS_GONE} call it; others never do.
 */
public interface PollingHandler extends MessageHandler {

    /**
     * No application thread polls this endpoint any more ({@link Polling#poll}): the polling stopped or was announced
     * to stop ({@link Polling#pollingStopped}). An upper layer that holds work back for its polling thread to finish
     * (messages it delays to send them together with a reply, work it hands to that thread on an inline transport)
     * must do it now: that thread may not come back. Called at most once per stretch of polling: from the
     * transport's own thread, which has taken the receive path back (udp), or, on a transport without one (inmem),
     * from the thread of another endpoint that noticed, or from the thread that called {@code pollingStopped}; it may
     * run concurrently with the other callbacks.
     */
    void onPollersGone();
}
