package org.portals3j.transport.gm.internal.endpoint;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.internal.PollHandover;

/**
 * Who runs the endpoint's receive path (the {@link Receiver}): whoever holds {@link #lock}, an application thread in
 * {@link #poll}, else the progress thread, blocked in gmx_poll (never spinning) while nobody polls; the hand-over.
 */
final class ReceivePath implements Runnable {
    /** gmx_poll's longest wait: the library's timers (acknowledgements, keep-alives) run inside it. */
    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How soon after an unannounced stop of the pollers the progress thread must be back (timers run at 1 ms). */
    private static final long HANDOVER_TOLERANCE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    static final System.Logger LOG = System.getLogger(ReceivePath.class.getName());

    private final GmEndpoint endpoint;
    private final MessageHandler handler;
    private final GmPort port;
    /** Who runs the receive path; everything below it (and the peers' receive state) is guarded by it. */
    private final ReentrantLock lock = new ReentrantLock();
    /** What the receive path does: gmx_poll's events, and the close. */
    private final Receiver receiver;
    /** The hand-over's clock (System.nanoTime; tests freeze it). */
    private final LongSupplier clock;
    /** When the progress thread leaves the receive path to polling application threads. */
    private final PollHandover handover;
    /** Set while the progress thread waits in gmx_poll; a poller that clears it wakes that thread. */
    private final AtomicBoolean waiting = new AtomicBoolean();
    /** Times the progress thread looked and stayed away because threads poll (counters: progressStayedAway). */
    private final AtomicLong stayedAway = new AtomicLong();
    private volatile @Nullable Thread thread;
    /**
     * Polls that held the receive path (guarded by {@link #lock}): every {@code STAMP_EVERY_MASK + 1}th stamps the
     * hand-over's clock, far more often than its grace of a millisecond; so do a poll that finds the lock taken and
     * the first poll after a round of the progress thread (set by it, guarded by {@link #lock}), which starts a
     * polling stretch the hand-over must hear of.
     */
    private int polls;
    private boolean progressRan = true;
    private static final int STAMP_EVERY_MASK = 15;

    ReceivePath(GmEndpoint endpoint, MessageHandler handler, LongSupplier clock) {
        this.endpoint = endpoint;
        this.clock = clock;
        this.handover = new PollHandover(clock.getAsLong(), HANDOVER_TOLERANCE_NANOS);
        this.handler = handler;
        this.port = endpoint.port;
        this.receiver = new Receiver(endpoint, handler);
    }

    void start() {
        Thread t = Thread.ofPlatform().daemon().name("gm-rank-" + endpoint.rank).unstarted(this);
        thread = t;
        t.start();
    }

    boolean isHeldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    @Nullable Thread thread() {
        return thread;
    }

    /**
     * The progress thread: stays away while application threads poll (they run libgm's timers too), else takes the
     * receive path and waits in gmx_poll for what arrives.
     */
    @Override
    public void run() {
        try {
            while (!endpoint.closed()) {
                long keepAway = handover.keepAwayNanos(clock.getAsLong());
                if (keepAway > 0) {
                    stayedAway.incrementAndGet();
                    LockSupport.parkNanos(this, keepAway);
                    continue;
                }
                if (handover.pollingEnded() && handler instanceof PollingHandler h) {
                    h.onPollersGone(); // outside the lock: it may wait for a sender that runs the receive path
                }
                lock.lock(); // a poller finishes its round first
                try {
                    waiting.set(true);
                    progressRan = true;
                    if (!endpoint.closed() && receiver.round(POLL_NANOS, false) < 0) {
                        break;
                    }
                } finally {
                    waiting.set(false);
                    lock.unlock();
                }
            }
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "rank " + endpoint.rank + ": progress thread failed", e);
            endpoint.close();
        } finally {
            lock.lock();
            try {
                receiver.shutdown();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * An application thread's turn at the receive path ({@link org.portals3j.transport.Polling#poll}): one gmx_poll
     * that does not wait, and its events. Does nothing inside a handler callback, or while another thread runs the
     * receive path (a progress thread waiting in gmx_poll is woken to hand it over).
     */
    boolean poll() {
        if (endpoint.closed() || lock.isHeldByCurrentThread()) {
            return false;
        }
        if (!lock.tryLock()) {
            handover.polled(clock.getAsLong());
            if (waiting.compareAndSet(true, false)) {
                port.wakeup();
            }
            return false;
        }
        try {
            if (progressRan || (++polls & STAMP_EVERY_MASK) == 0) { // a clock read costs 50-150 ns on a VM
                progressRan = false;
                handover.polled(clock.getAsLong());
            }
            return !endpoint.closed() && receiver.round(0, true) > 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A sender that waits for room runs the receive path once, without waiting, if nobody else does; and if it had
     * been polling, it has stopped: the progress thread takes over at once. Whether it ran.
     */
    boolean runIfUnattended() {
        if (endpoint.closed() || lock.isHeldByCurrentThread()) {
            return false;
        }
        if (handover.pollingRecently(clock.getAsLong())) {
            pollingStopped();
        }
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return !endpoint.closed() && receiver.round(0, false) >= 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The calling thread polls inside a wait until it announces a stop or its wait ends ({@link
     * org.portals3j.transport.Polling#waitStarted}): the progress thread looks only every {@link
     * PollHandover#waitLookNanos} meanwhile, not every millisecond or few.
     */
    void waitStarted() {
        handover.waitBegins();
    }

    /** The calling thread's wait, begun with {@link #waitStarted}, ended. */
    void waitEnded() {
        handover.waitEnds();
    }

    /** How many times the progress thread looked and stayed away because threads poll. */
    long stayedAway() {
        return stayedAway.get();
    }

    /** The polling thread stops: the progress thread takes the receive path back now. */
    void pollingStopped() {
        handover.stopped(clock.getAsLong());
        wakeProgressThread();
    }

    /** Gets the progress thread out of its wait, in gmx_poll or staying away (at close). */
    void wakeProgressThread() {
        port.wakeup();
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
