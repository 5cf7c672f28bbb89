package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;

/**
 * Runs Portals 3.3 event handlers (3.3 &sect;3.11.6) and remembers which thread is running one, so that a
 * Portals function called from a handler is refused ({@link LibraryState} asks {@link #isRunningOn})
 * instead of running in the middle of the operation that logged the event. One per library; used
 * under the engine lock.
 */
final class HandlerCalls {
    /**
     * The thread running a handler, or null. Written only under the engine lock, and read without it
     * only to compare with the reader's own thread: a thread can never see itself here unless it is
     * running a handler.
     */
    private @Nullable Thread running;

    /** True if {@code thread} is inside a handler now. */
    boolean isRunningOn(Thread thread) {
        return running == thread;
    }

    /**
     * Calls {@code handler} with {@code event}. What the handler throws goes to the thread's
     * uncaught-exception handler: it must not unwind the engine half-way through logging an event.
     */
    void run(EventHandler handler, Event event) {
        Thread self = Thread.currentThread();
        running = self;
        try {
            handler.handle(event);
        } catch (Throwable failure) {
            try {
                Thread.UncaughtExceptionHandler report = self.getUncaughtExceptionHandler();
                if (report != null) { // null only for a terminated thread, which this one is not
                    report.uncaughtException(self, failure);
                }
            } catch (Throwable ignored) {
                // The uncaught-exception handler failed as well; nothing is left to report to, and the
                // engine must go on logging the event.
            }
        } finally {
            running = null;
        }
    }
}
