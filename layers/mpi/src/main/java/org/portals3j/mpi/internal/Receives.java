package org.portals3j.mpi.internal;

import org.checkerframework.checker.initialization.qual.NotOnlyInitialized;
import org.checkerframework.checker.initialization.qual.UnderInitialization;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;

/**
 * The posting side of a rank's receives: matches a receive against the unexpected queue, else puts it on the pending
 * list or posts it as a match entry without a race (Portals 3.2 section 5.3), keeps the idle entry, and cancels.
 */
final class Receives {
    /**
     * A receive of at most this many bytes waits on the pending list rather than as a match entry: its message lands
     * in the region and is copied out (package documentation, "Small receives").
     */
    static final long COPY_LIMIT = 1024;
    /** As many pending receives as the interface takes match entries. */
    private static final int MAX_PENDING = RankPortals.LIMITS.maxMatchEntries();

    private final RankPortals p;
    /** The engine (which makes this in its constructor, hence under initialization then). */
    private final @NotOnlyInitialized PointToPoint engine;
    private final Arrivals arrivals;
    private final Portals lib;
    private final int rank;
    private final EqHandle eq;
    private final MeHandle mark;
    private final RankLock lock;
    private final UnexpectedQueue unexpected;
    /** Receives posted and not yet matched or cancelled. */
    private int postedReceives;
    /** Small receives waiting in posting order, none matched yet. */
    private final PendingReceives pending = new PendingReceives();
    /** An inactive entry (and its MD) kept from a receive of {@link #idleWant}/{@link #idleIgnore}, or null. */
    private @Nullable MeHandle idleMe;
    private @Nullable MdHandle idleMd;
    private long idleWant;
    private long idleIgnore;

    Receives(RankPortals p, Arrivals arrivals, @UnderInitialization PointToPoint engine) {
        this.p = p;
        this.engine = engine;
        this.arrivals = arrivals;
        this.lib = p.lib;
        this.rank = p.rank;
        this.eq = p.eq;
        this.mark = p.mark;
        this.lock = p.lock;
        this.unexpected = arrivals.unexpected;
    }

    /** {@link PointToPoint#startReceive}. */
    void start(ReceiveOperation op) {
        lock.lock();
        try {
            post(op);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts {@code op} under the lock: on the pending list if it is small or another receive is pending
     * ({@link #postPending}), otherwise as a match entry ({@link #postReceive}), for which the blocker, if another
     * thread is one, is recalled first.
     */
    void post(ReceiveOperation op) {
        if (!postPending(op)) {
            engine.recall();
            if (!postPending(op)) { // the lock may have been let go meanwhile
                postReceive(op);
            }
        }
    }

    /**
     * Starts {@code op} in software if it is at most {@link #COPY_LIMIT} bytes or another receive is pending (a match
     * entry posted now would take messages ahead of that one): takes the oldest matching unexpected message, or goes
     * to the tail of the pending list, where every message announced later (its PUT_START handled) is matched
     * against it, in posting order. No Portals call, and no need for the queue to itself: events not handled yet
     * are newer than the unexpected queue, and meet the receive on the list. Under the lock.
     *
     * @return false if it must be posted as a match entry instead (nothing done)
     */
    private boolean postPending(ReceiveOperation op) {
        p.checkOpen();
        if (pending.isEmpty() && op.buffer.byteSize() > COPY_LIMIT) {
            return false;
        }
        try {
            UnexpectedMessage m = unexpected.find(op.want, op.ignore);
            if (m != null) {
                arrivals.take(m, op);
                return true;
            }
        } catch (PortalsException e) {
            throw p.outOfResources(e);
        }
        if (pending.size() == MAX_PENDING) {
            throw new MpiError(ErrorClass.NO_MEM, "rank " + rank + " cannot post the receive: " + MAX_PENDING
                    + " receives are posted already (wait for some before posting more)");
        }
        op.state = ReceiveOperation.State.PENDING;
        pending.add(op);
        return true;
    }

    /**
     * Gives the message {@code m} just announced to the oldest pending receive it matches, if one does. Under the
     * lock.
     *
     * @return {@code m} if no pending receive took it (it stays unexpected), otherwise null
     */
    @Nullable UnexpectedMessage offerPending(@Nullable UnexpectedMessage m) {
        if (m == null || pending.isEmpty()) {
            return m;
        }
        ReceiveOperation r = pending.takeMatching(m.bits);
        if (r == null) {
            return m;
        }
        arrivals.take(m, r);
        return null;
    }

    /**
     * {@link PointToPoint#startReceive} as a match entry, under the lock, taken with no other thread the blocker and
     * no receive pending. An idle entry kept from an earlier receive with the same match and ignore bits is switched
     * on again when no other receive is posted (so that it is the only active entry before the mark, wherever it
     * stands): one {@code PtlMDUpdate} in place of an insert, an attach, the update and the UNLINK event.
     */
    private void postReceive(ReceiveOperation op) {
        p.checkOpen();
        try {
            engine.drain();
            UnexpectedMessage m = unexpected.find(op.want, op.ignore);
            if (m != null) {
                arrivals.take(m, op);
                return;
            }
            MemoryDescriptor inactive = op.inactiveDescriptor(eq);
            MeHandle me = idleMe;
            MdHandle md = idleMd;
            boolean reused = me != null && md != null && postedReceives == 0 && idleWant == op.want
                    && idleIgnore == op.ignore;
            boolean keep = reused;
            if (me != null && md != null && reused) {
                idleMe = null;
                idleMd = null;
            } else {
                if (me != null && postedReceives == 0) { // another pattern: the new entry takes its place
                    idleMe = null;
                    idleMd = null;
                    lib.meUnlink(me);
                }
                // kept after it matches only if it may take the idle place: an entry of its own otherwise
                keep = idleMe == null;
                me = lib.meInsert(mark, ProcessId.ANY, op.want, op.ignore, Unlink.UNLINK, InsertPosition.BEFORE);
                try {
                    md = lib.mdAttach(me, inactive, keep ? Unlink.RETAIN : Unlink.UNLINK, Unlink.RETAIN);
                } catch (PortalsException e) {
                    lib.meUnlink(me);
                    throw e;
                }
            }
            MemoryDescriptor active = op.activeDescriptor();
            while (true) {
                MdUpdateResult r = lib.mdUpdate(md, active, eq);
                if (r.updated()) {
                    break;
                }
                while (engine.next()) {
                    UnexpectedMessage u = engine.handleNext();
                    if (u != null && MatchBits.matches(u.bits, op.want, op.ignore)) {
                        if (reused && idleMe == null) {
                            idle(me, md, op.want, op.ignore); // still inactive: idle again
                        } else {
                            lib.meUnlink(me);
                        }
                        arrivals.take(u, op);
                        return;
                    }
                }
            }
            op.kept = keep;
            op.me = me;
            op.md = md;
            op.posted = active;
            op.state = ReceiveOperation.State.POSTED;
            postedReceives++;
        } catch (PortalsException e) {
            throw p.outOfResources(e);
        }
    }

    /** Keeps the inactive entry {@code me} (its MD {@code md}) for the next receive of {@code want}/{@code ignore}. */
    private void idle(MeHandle me, MdHandle md, long want, long ignore) {
        idleMe = me;
        idleMd = md;
        idleWant = want;
        idleIgnore = ignore;
    }

    /**
     * A posted receive's entry has matched (its MD is inactive now) or failed: a kept one becomes the idle entry if
     * that place is free and the put did not fail, and is unlinked otherwise. Under the lock.
     */
    private void matched(ReceiveOperation op, @Nullable MeHandle me, @Nullable MdHandle md, boolean failed) {
        postedReceives--;
        if (!op.kept || me == null) {
            return;
        }
        op.kept = false;
        if (!failed && md != null && idleMe == null) {
            idle(me, md, op.want, op.ignore);
            return;
        }
        try {
            lib.meUnlink(me);
        } catch (PortalsException e) {
            // already gone with the interface
        }
    }

    /**
     * Cancels {@code op} if it is still posted and unmatched: its MD is switched off ({@code PtlMDUpdate} to
     * threshold 0 reports whether a message had taken it first) and its entry unlinked.
     *
     * @return whether it was cancelled (otherwise it completes normally)
     */
    boolean cancel(ReceiveOperation op) {
        lock.lock();
        try {
            if (op.state == ReceiveOperation.State.PENDING && pending.remove(op)) {
                cancelled(op);
                return true;
            }
            MdHandle md = op.md;
            MeHandle me = op.me;
            MemoryDescriptor posted = op.posted;
            if (op.state != ReceiveOperation.State.POSTED || md == null || me == null || posted == null) {
                return false;
            }
            try {
                MdUpdateResult r = lib.mdUpdate(md, posted.withThreshold(0), EqHandle.NONE);
                if (r.previous().threshold() == 0) {
                    return false;
                }
            } catch (PortalsException e) {
                return false; // unlinked: a message took it
            }
            lib.meUnlink(me);
            postedReceives--;
            op.kept = false;
            op.md = null;
            cancelled(op);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void cancelled(ReceiveOperation op) {
        op.cancelled = true;
        op.state = ReceiveOperation.State.DONE;
        Operation.completeAtOnce(op, MatchBits.source(op.want), MatchBits.tag(op.want));
        engine.changedLocally();
    }

    /** A posted receive's entry took a message (its PUT_END) or failed: the entry is let go ({@link #matched}). */
    void entryUsed(ReceiveOperation op, boolean failed) {
        matched(op, op.me, op.md, failed);
        op.md = null;
        op.me = null;
    }
}
