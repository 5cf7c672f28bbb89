package org.portals3j.mpi.internal;

import org.checkerframework.checker.initialization.qual.NotOnlyInitialized;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Polling;

/**
 * One rank's point-to-point engine on a Portals 3.2 library: its thread-safe entry points (one lock per rank, let go
 * between rounds of a wait) and the dispatch of each event to {@link Sends}, {@link Receives} or {@link Arrivals}.
 */
public final class PointToPoint {
    private static final int DRAIN_BATCH = 256;

    /** The rank's Portals objects and the state the engine's parts share. */
    private final RankPortals p;
    private final Portals lib;
    private final int rank;
    private final int size;
    private final MpiConfig config;
    private final NiHandle ni;
    private final EqHandle eq;
    private final Event event = new Event();
    /** The rank's nonblocking collectives under way ({@link #progress()} moves them on). */
    private final CollectiveProgress collectives = new CollectiveProgress();
    private final RankLock lock;
    /** The send side. */
    private final @NotOnlyInitialized Sends sends;
    /** Where messages land and how a matched one reaches its receive. */
    private final Arrivals arrivals;
    /** The posting of receives. */
    private final @NotOnlyInitialized Receives receives;
    /** Probe and matched probe. */
    private final @NotOnlyInitialized Probes probes;
    /** The waits of the rank's threads (made last in the constructor, with this engine under initialization). */
    private final @NotOnlyInitialized RankWaits waits;

    /** Sets up the receive side of rank {@code rank} on {@code lib} (already created, not yet initialised). */
    public PointToPoint(Portals lib, int rank, MpiConfig config) {
        this(lib, rank, config, false);
    }

    /**
     * As {@link #PointToPoint(Portals, int, MpiConfig)}; {@code oversubscribed}: the job's ranks on this host
     * outnumber its cores, so the rank's waits give their core away after a short spin
     * ({@link org.portals3j.transport.Oversubscription}).
     */
    public PointToPoint(Portals lib, int rank, MpiConfig config, boolean oversubscribed) {
        Polling polling = Polling.of(lib.transport());
        RankPortals portals = new RankPortals(lib, rank, config);
        this.p = portals;
        this.lib = lib;
        this.rank = rank;
        this.size = portals.peers.length;
        this.config = config;
        this.ni = portals.ni;
        this.eq = portals.eq;
        this.lock = portals.lock;
        this.sends = new Sends(portals, this);
        this.arrivals = new Arrivals(portals);
        this.receives = new Receives(portals, arrivals, this);
        this.probes = new Probes(portals, arrivals, this);
        this.waits = new RankWaits(this, lock, lib, eq, portals.creditMd, portals.peers[rank], polling,
                oversubscribed);
    }

    /** The calling thread's back-off in this rank's waits. */
    IdleStrategy waitIdle() {
        return waits.idle();
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public MpiConfig config() {
        return config;
    }

    /** How often the rank's lock was taken so far (a count for tests and benchmarks of the work per message). */
    long lockHolds() {
        return lock.holds();
    }

    /** The thread blocked in {@code PtlEQWait} for the rank's next event, if one is (tests). */
    @Nullable Thread blocker() {
        return waits.blocker();
    }

    // ---- sends --------------------------------------------------------------------------------

    /**
     * Starts sending {@code op}'s buffer to rank {@code dest} of the job with match bits {@code bits}: eagerly if
     * it is at most the eager limit, not synchronous, and the credit for {@code dest} covers it; by rendezvous
     * otherwise (a synchronous send then completes only once the receiver has matched and read it).
     */
    public void startSend(SendOperation op, int dest, long bits, boolean synchronous) {
        sends.start(op, dest, bits, synchronous);
    }

    // ---- receives -----------------------------------------------------------------------------

    /**
     * Starts {@code op}: takes the oldest matching unexpected message, or waits on the pending list ({@link #post}),
     * or posts the receive before the mark. The race between the unexpected queue and the entry (a message arriving
     * while the entry is inserted) is closed as Portals 3.2 section 5.3 does: the MD is attached inactive and switched
     * on by {@code PtlMDUpdate} only if the event queue is empty; every event found in between is handled first, and a
     * matching unexpected message among them is taken.
     */
    public void startReceive(ReceiveOperation op) {
        receives.start(op);
    }

    /** {@link #startReceive} under the lock ({@link RankWaits#receive}). */
    void post(ReceiveOperation op) {
        receives.post(op);
    }

    /**
     * A blocking receive: starts {@code op} ({@link #startReceive}) and waits until it is done; a receive left posted
     * becomes the rank's blocker in the same hold of the lock.
     */
    public void receive(ReceiveOperation op) {
        if (!op.isDone()) {
            waits.receive(op);
        }
    }

    /**
     * Cancels {@code op} if it is still posted and unmatched: its MD is switched off ({@code PtlMDUpdate} to
     * threshold 0 reports whether a message had taken it first) and its entry unlinked.
     *
     * @return whether it was cancelled (otherwise it completes normally)
     */
    public boolean cancel(ReceiveOperation op) {
        return receives.cancel(op);
    }

    /** The oldest unexpected message matching {@code want}/{@code ignore}: its bits and length; null if none. */
    public @Nullable ProbeResult probe(long want, long ignore) {
        return probes.probe(want, ignore);
    }

    /** Messages this rank's interface discarded ({@code PTL_SR_DROP_COUNT}): 0 unless a peer broke the protocol. */
    public long dropCount() {
        lock.lock();
        try {
            return p.finished ? 0 : lib.niStatus(ni, StatusRegister.DROP_COUNT);
        } finally {
            lock.unlock();
        }
    }

    // ---- progress -----------------------------------------------------------------------------

    /** Handles the events waiting, then moves the nonblocking collectives on; returns how much it did. */
    public int progress() {
        int n;
        lock.lock();
        try {
            if (p.finished) {
                return 0;
            }
            n = waits.drainUnlessBlocked();
        } finally {
            lock.unlock();
        }
        int moved = collectives.advance();
        if (moved > 0) {
            changedLocally(); // a schedule it finished may be another thread's, about to block for it
        }
        return n + moved;
    }

    // ---- nonblocking collectives (their schedules advance in every progress round) ----------------

    /** The rank's nonblocking collectives under way. */
    public CollectiveProgress collectives() {
        return collectives;
    }

    /** Waits until {@code op} is done, making progress meanwhile (the lock is free between rounds). */
    public void await(Operation op) {
        waits.await(op);
    }

    /** One round of a wait whose caller checks its own condition between rounds ({@link RankWaits#idleRound}). */
    public void idleRound(boolean first) {
        waits.idleRound(first);
    }

    /** A background iDup's thread starts: until it ends every wait of the rank backs off rather than blocks. */
    public void backgroundStarted() {
        waits.backgroundStarted();
    }

    /** A background iDup's thread ends (after its operation completed). */
    public void backgroundEnded() {
        waits.backgroundEnded();
    }

    /**
     * Says that something a thread of this rank may wait for changed other than by an event, waking the thread
     * blocked for an event, if another is ({@link RankWaits#changedLocally}).
     */
    public void changedLocally() {
        waits.changedLocally();
    }

    /** Whether the rank has finished (its library released). Under the lock. */
    boolean isFinished() {
        return p.finished;
    }

    /**
     * Handles the event the blocker's {@code PtlEQWait} returned ({@code rc}), then those behind it: all of them, or,
     * for a blocker waiting for {@code op}, until {@code op} is done (locked).
     */
    void handleWaited(ReturnCode rc, Event e, @Nullable Operation op) {
        if (p.finished) {
            return;
        }
        if (rc == ReturnCode.EQ_DROPPED) {
            throw eventsLost();
        }
        handle(e);
        if (op == null) {
            drain();
        } else {
            drainUntilDone(op);
        }
    }

    /**
     * Finishes every send still under way and every receive that has matched (requests the program freed), then
     * releases the library. A receive still posted, or a message never received, goes with it.
     */
    public void finish() {
        IdleStrategy idle = waits.idle();
        idle.reset();
        while (true) {
            waits.lockExclusive();
            try {
                int n = drain();
                if (p.inFlight == 0) {
                    p.release();
                    return;
                }
                idle.idle(n);
            } finally {
                lock.unlock();
            }
        }
    }

    /** Takes the next event of the queue into the engine's event; false if the queue is empty. Under the lock. */
    boolean next() {
        ReturnCode rc = lib.eqGet(eq, event);
        if (rc == ReturnCode.EQ_DROPPED) {
            throw eventsLost();
        }
        return rc != ReturnCode.EQ_EMPTY;
    }

    private MpiError eventsLost() {
        return new MpiError(ErrorClass.INTERN, "rank " + rank + " lost events of its event queue (more than "
                + RankPortals.EQ_SIZE + " waiting): messages may be lost; the job cannot go on");
    }

    /** Handles up to a batch of the events waiting; returns how many. Under the lock. */
    int drain() {
        int n = 0;
        while (n < DRAIN_BATCH && next()) {
            handle(event);
            n++;
        }
        return n;
    }

    /** Handles the event {@link #next} took; returns the unexpected message it announced, if no receive took it. */
    @Nullable UnexpectedMessage handleNext() {
        return handle(event);
    }

    /** {@link RankWaits#drainUnlessBlocked}. Under the lock. */
    int drainUnlessBlocked() {
        return waits.drainUnlessBlocked();
    }

    /** Recalls the blocker, if another thread is one ({@link RankWaits#recall}). Under the lock. */
    void recall() {
        waits.recall();
    }

    /** {@link #drainUntilDone}, unless another thread is the blocker ({@link RankWaits#mayDrain}). Under the lock. */
    void drainUntilDoneUnlessBlocked(Operation op) {
        if (waits.mayDrain()) {
            drainUntilDone(op);
        }
    }

    /**
     * Handles up to a batch of the events waiting, in order, until {@code op} is done. The events behind it stay
     * queued for the rank's next call: as if they had come a moment later, after a look that found the queue empty,
     * and that costs a look (and on udp a poll of the socket) for every operation. Under the lock, with no other
     * thread the blocker.
     */
    private void drainUntilDone(Operation op) {
        for (int n = 0; n < DRAIN_BATCH && !op.isDone() && next(); n++) {
            handle(event);
        }
    }

    /** Handles one event; returns the unexpected message it announced, if it announced one. Under the lock. */
    private @Nullable UnexpectedMessage handle(Event e) {
        waits.eventHandled();
        Object ptr = e.userPtr();
        switch (e.type()) {
            case PUT_START -> {
                if (ptr instanceof RankPortals.Region region) {
                    return receives.offerPending(arrivals.arrivedEager(e, region.peer()));
                } else if (ptr == RankPortals.HEADER_SINK) {
                    return receives.offerPending(arrivals.arrivedHeader(e));
                } else if (ptr instanceof ReceiveOperation && !MatchBits.isLong(e.matchBits())) {
                    arrivals.depositStarted(e);
                }
            }
            case PUT_END, PUT_FAIL -> putEnded(e, ptr, e.type() == EventKind.PUT_FAIL);
            case SEND_END, SEND_FAIL, GET_END, GET_FAIL -> {
                if (ptr instanceof SendOperation op) {
                    sends.ended(e, op);
                }
            }
            case REPLY_END, REPLY_FAIL -> {
                if (ptr instanceof ReceiveOperation op) {
                    arrivals.bodyRead(e, op);
                }
            }
            default -> {
                // SEND_START, GET_START, REPLY_START, ACK, UNLINK: nothing to do
            }
        }
        return null;
    }

    private void putEnded(Event e, @Nullable Object ptr, boolean failed) {
        if (ptr instanceof RankPortals.Region || ptr == RankPortals.HEADER_SINK) {
            arrivals.landed(e, failed);
        } else if (ptr instanceof ReceiveOperation op) {
            receives.entryUsed(op, failed);
            arrivals.deposited(e, op, failed);
        } else if (ptr == RankPortals.CREDIT_SINK && !failed) {
            sends.creditReported(e);
        }
    }

    // ---- matched probe (Message.mProbe, imProbe, mRecv, imRecv) ---------------------------------------

    /**
     * Claims the oldest unexpected message matching {@code want}/{@code ignore} that nobody has claimed: from now on
     * no receive or probe of any thread can match it, only {@link #receiveClaimed}. Null if there is none.
     */
    public @Nullable ClaimedMessage claim(long want, long ignore) {
        return probes.claim(want, ignore);
    }

    /** Receives the claimed message {@code c} into {@code op} (once: {@code c} is spent afterwards). */
    public void receiveClaimed(ClaimedMessage c, ReceiveOperation op) {
        probes.receiveClaimed(c, op);
    }
}
