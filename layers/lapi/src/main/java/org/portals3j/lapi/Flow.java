package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The origin's side of flow control and of Fence: per target, the credits left (how many more requests it may
 * send before the target's replies return some), the operations whose data is not yet delivered, and the purge
 * epoch; and the table of operations in flight. Each request takes one credit and one operation slot; the
 * target's final reply gives both back. Nothing here allocates after construction.
 */
final class Flow {
    private static final int SLOT_BITS = 24;

    private final Progress progress;
    private final int initialCredits;
    private final int[] credits;
    private final boolean[] granted;
    private final int[] undelivered;
    private final int[] purgeEpoch;
    private final int[] waiting;
    /** Per target: the flush epoch lazy requests carry, and whether one was sent since the last flush. */
    private final int[] epoch;
    private final boolean[] lazySent;
    private int fencing;
    private final Op[] ops;
    private final int[] free;
    private int freeCount;
    private int totalUndelivered;

    Flow(int tasks, int self, int creditsPerTarget, Progress progress) {
        this.progress = progress;
        this.initialCredits = creditsPerTarget;
        credits = new int[tasks];
        granted = new boolean[tasks];
        undelivered = new int[tasks];
        purgeEpoch = new int[tasks];
        waiting = new int[tasks];
        epoch = new int[tasks];
        lazySent = new boolean[tasks];
        int slots = Math.min(tasks * creditsPerTarget, 1 << SLOT_BITS);
        ops = new Op[slots];
        free = new int[slots];
        for (int i = 0; i < slots; i++) {
            ops[i] = new Op(i);
            free[i] = slots - 1 - i;
        }
        freeCount = slots;
        granted[self] = true;
        credits[self] = creditsPerTarget;
    }

    int initialCredits() {
        return initialCredits;
    }

    /**
     * A new operation to {@code tgt}, taking a credit: waits (progress continues) while there is none, until a
     * purge of {@code tgt} ({@code TGT_PURGED}) or the end of the context ({@code HNDL_INVALID}).
     */
    Op begin(int tgt, boolean get, @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr, String call) {
        int epoch;
        synchronized (this) {
            Op op = tryBegin(tgt);
            if (op != null) {
                return fill(op, get, orgCntr, cmplCntr);
            }
            epoch = purgeEpoch[tgt];
            progress.checkMayBlock(call + " (waiting for flow-control credit to task " + tgt + ")");
            waiting[tgt]++;
        }
        try {
            while (true) {
                progress.await(() -> mayBegin(tgt, epoch), call);
                synchronized (this) {
                    if (purgeEpoch[tgt] != epoch) {
                        throw new LapiException(LapiError.TGT_PURGED, call + " to task " + tgt
                                + " waited for flow control and LAPI_Purge_totask released it; nothing was sent");
                    }
                    Op op = tryBegin(tgt);
                    if (op != null) {
                        return fill(op, get, orgCntr, cmplCntr);
                    }
                }
            }
        } finally {
            synchronized (this) {
                waiting[tgt]--;
            }
        }
    }

    /** How many calls wait for credit to {@code tgt} now. */
    synchronized int waiting(int tgt) {
        return waiting[tgt];
    }

    private synchronized boolean mayBegin(int tgt, int epoch) {
        return purgeEpoch[tgt] != epoch || (credits[tgt] > 0 && freeCount > 0);
    }

    private @Nullable Op tryBegin(int tgt) {
        if (credits[tgt] == 0 || freeCount == 0) {
            return null;
        }
        credits[tgt]--;
        Op op = ops[free[--freeCount]];
        op.generation = op.generation == (1 << (63 - SLOT_BITS)) - 1 ? 1 : op.generation + 1;
        op.id = ((long) op.generation << SLOT_BITS) | op.slot;
        op.tgt = tgt;
        undelivered[tgt]++;
        totalUndelivered++;
        return op;
    }

    private static Op fill(Op op, boolean get, @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr) {
        op.get = get;
        op.orgCntr = orgCntr;
        op.cmplCntr = cmplCntr;
        return op;
    }

    /** The live operation {@code id} to {@code src}, or null (stale, forged or from the wrong task). */
    synchronized @Nullable Op find(long id, int src) {
        long slot = id & ((1L << SLOT_BITS) - 1);
        if (id <= 0 || slot >= ops.length) {
            return null;
        }
        Op op = ops[(int) slot];
        return op.id == id && op.tgt == src ? op : null;
    }

    /** The operation's data is delivered (at most once per operation). */
    synchronized void delivered(Op op) {
        if (!op.dataDone) {
            op.dataDone = true;
            undelivered[op.tgt]--;
            totalUndelivered--;
            progress.signal();
        }
    }

    /** Ends the operation: its credit and slot come back. */
    synchronized void end(Op op) {
        delivered(op);
        credits[op.tgt]++;
        op.id = 0;
        op.reset();
        free[freeCount++] = op.slot;
        progress.signal();
    }

    /** Ends an operation whose request could not be sent: the credit comes back. */
    void abort(Op op) {
        end(op);
    }

    /**
     * A request to {@code tgt} whose final reply the target may defer: the flush epoch it carries, or -1 while a
     * Fence waits (it waits for this request too, so its reply must not wait).
     */
    synchronized long lazy(int tgt) {
        if (fencing > 0) {
            return -1;
        }
        lazySent[tgt] = true;
        return epoch[tgt] & 0xFFFF_FFFFL;
    }

    /** A Fence begins ({@code +1}) or ends ({@code -1}): no request is lazy meanwhile. */
    synchronized void fencing(int delta) {
        fencing += delta;
    }

    /**
     * Fence: if {@code tgt} may hold deferred replies of ours (a lazy request sent since the last flush, and data
     * not yet delivered there), the next flush epoch to send it; else -1.
     */
    synchronized long startFlush(int tgt) {
        if (!lazySent[tgt] || undelivered[tgt] == 0) {
            return -1;
        }
        lazySent[tgt] = false;
        epoch[tgt]++;
        return epoch[tgt] & 0xFFFF_FFFFL;
    }

    /** True when every operation started so far has its data delivered (Fence's condition). */
    synchronized boolean allDelivered() {
        return totalUndelivered == 0;
    }

    /** The first hello from {@code peer}: it gives {@code n} credits. False if it had already given them. */
    synchronized boolean grant(int peer, int n) {
        if (granted[peer]) {
            return false;
        }
        granted[peer] = true;
        credits[peer] += Math.max(0, Math.min(n, LapiConfig.MAX_CREDITS));
        progress.signal();
        return true;
    }

    /**
     * Waits (progress continues) until {@code peer}'s hello has come, so that its receive ring is attached; the
     * barrier's and Address_init's packets, which take no credit, wait here.
     */
    void awaitGranted(int peer, String call) {
        progress.await(() -> isGranted(peer), call);
    }

    private synchronized boolean isGranted(int peer) {
        return granted[peer];
    }

    synchronized void purge(int tgt) {
        purgeEpoch[tgt]++;
        progress.signal();
    }
}
