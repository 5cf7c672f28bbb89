package org.portals3j.transport;

/**
 * The polling hand-over, an optional interface of a {@link Transport} endpoint: application threads that wait for a
 * message take it off the network themselves. Reach it with {@link #of}; an endpoint without it never polls.
 *
 * <p>The upper layer polls while an application thread waits for something a message will bring, or looks for it
 * without waiting, so that the thread that wants a message receives it itself: handing it over from a transport
 * thread costs a wake-up and, on a machine with two cores, a third thread competing for them. A transport thread
 * remains responsible whenever nobody polls. Both methods may be called from any number of application threads at
 * once.
 */
public interface Polling {

    /** The endpoint of a transport without polling: {@link #poll} does nothing and says so. */
    Polling NONE = new Polling() {
        @Override
        public boolean poll() {
            return false;
        }

        @Override
        public void pollingStopped() {
        }
    };

    /** {@code transport}'s polling hand-over, or {@link #NONE} if it has none. */
    static Polling of(Transport transport) {
        return transport instanceof Polling polling ? polling : NONE;
    }

    /**
     * Makes progress on the calling thread, without blocking: receives what has arrived and delivers it through the
     * handler, sends acknowledgements and retransmissions that are due. Returns whether it did anything.
     *
     * <p>A transport that delivers inline has nothing to receive here; it may still count the polls, to tell the
     * handler when they stop ({@link TransportCapability#REPORTS_POLLERS_GONE}). A call from inside a handler
     * callback does nothing.
     */
    boolean poll();

    /**
     * Says that the calling thread, which has been calling {@link #poll}, stops doing so for a while (it is about to
     * park). A transport that leaves its receive path to polling threads can take it back at once, rather than when
     * it notices that nobody polls any more: noticing means waking up now and then to look, which costs the spinning
     * threads of a 2-core machine their core. Other threads may still poll.
     */
    void pollingStopped();

    /**
     * Says that the calling thread starts polling inside a wait: until it calls {@link #waitEnded} it polls again
     * soon, and announces {@link #pollingStopped} before it stops to park. A transport need not look whether such a
     * thread is still there. The shared wait loop calls both; the defaults do nothing.
     */
    default void waitStarted() {
    }

    /** Says that the calling thread's wait ({@link #waitStarted}) ended: it may poll no more. */
    default void waitEnded() {
    }
}
