package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import org.portals3j.transport.udp.internal.io.DatagramIo;

/**
 * The protocol thread's sleep in the socket's selector, and its wake-up by a sender that starts a timer the sleep
 * does not cover. The protocol thread calls {@link #begin} before it reads its timers, so such a sender sees it.
 */
final class ProtocolSleep {
    private final DatagramIo io;
    /** The protocol thread is (about to be) blocked in the selector. */
    private volatile boolean sleeping;

    ProtocolSleep(DatagramIo io) {
        this.io = io;
    }

    /** Protocol thread: it is about to sleep; it reads its timers' deadline after this. */
    void begin() {
        sleeping = true;
    }

    /** Protocol thread, between {@link #begin} and {@link #end}: blocks up to {@code millis}, or until woken. */
    void await(long millis) throws IOException {
        io.await(millis);
    }

    /** Protocol thread: awake again. */
    void end() {
        sleeping = false;
    }

    /**
     * Any thread, after starting a timer (the sleep may outlast it), or a poller (the protocol thread steps aside
     * now, rather than when the next datagram, which the poller takes, wakes it): wakes the protocol thread if it
     * sleeps.
     */
    void wakeIfSleeping() {
        if (sleeping) {
            io.wakeup();
        }
    }
}
