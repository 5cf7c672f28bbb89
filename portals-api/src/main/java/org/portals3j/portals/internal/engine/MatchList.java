package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.InsertPosition;

/**
 * The match list of one portal index (Portals 3.2 spec §2.2): entries in the order the spec's walk visits them.
 *
 * <p>Besides the list itself, every entry sits on one <em>chain</em>: entries without ignore bits on
 * the {@link ExactIndex} bucket of their match bits, all others on the wildcard chain. Each entry
 * carries an {@code order} key that increases along the list, so the walk for an incoming request
 * merges two short chains (the request's bucket and the wildcard chain) by key and visits exactly the
 * entries whose bits can match, in list order. Keys are spaced {@link #GAP} apart and renumbered in
 * the rare case an insertion finds no room between two neighbours.
 */
final class MatchList {
    static final long GAP = 1L << 20;

    @Nullable MatchEntryState head;
    @Nullable MatchEntryState tail;
    int length;
    final ExactIndex.Chain wild = new ExactIndex.Chain();
    final ExactIndex index = new ExactIndex();

    /**
     * Inserts {@code me} before or after {@code anchor}, or, with no anchor, at the head
     * ({@code BEFORE}) or tail ({@code AFTER}) (Portals 3.2 spec §3.7.1, §3.7.3.2).
     */
    void insert(MatchEntryState me, @Nullable MatchEntryState anchor, InsertPosition position) {
        MatchEntryState before;
        MatchEntryState after;
        if (anchor == null) {
            before = position == InsertPosition.BEFORE ? null : tail;
            after = position == InsertPosition.BEFORE ? head : null;
        } else if (position == InsertPosition.BEFORE) {
            before = anchor.prev;
            after = anchor;
        } else {
            before = anchor;
            after = anchor.next;
        }
        if (!assignOrder(me, before, after)) {
            renumber();
            if (!assignOrder(me, before, after)) {
                throw new IllegalStateException("no order key after renumbering");
            }
        }
        me.prev = before;
        me.next = after;
        if (before == null) {
            head = me;
        } else {
            before.next = me;
        }
        if (after == null) {
            tail = me;
        } else {
            after.prev = me;
        }
        length++;
        if (me.exact()) {
            ExactIndex.Bucket bucket = index.getOrCreate(me.matchBits);
            me.bucket = bucket;
            chainInsert(bucket, me);
        } else {
            me.bucket = null;
            chainInsert(wild, me);
        }
    }

    void remove(MatchEntryState me) {
        MatchEntryState p = me.prev;
        MatchEntryState n = me.next;
        if (p == null) {
            head = n;
        } else {
            p.next = n;
        }
        if (n == null) {
            tail = p;
        } else {
            n.prev = p;
        }
        me.prev = null;
        me.next = null;
        length--;
        ExactIndex.Bucket bucket = me.bucket;
        if (bucket != null) {
            chainRemove(bucket, me);
            if (bucket.head == null) {
                index.remove(bucket);
            }
            me.bucket = null;
        } else {
            chainRemove(wild, me);
        }
    }

    void clear() {
        head = null;
        tail = null;
        length = 0;
        wild.head = null;
        wild.tail = null;
        index.clear();
    }

    private static boolean assignOrder(MatchEntryState me, @Nullable MatchEntryState before,
                                       @Nullable MatchEntryState after) {
        if (before != null && after != null) {
            long span = after.order - before.order;
            if (span < 2) {
                return false;
            }
            me.order = before.order + span / 2;
        } else if (after != null) {
            if (after.order < Long.MIN_VALUE / 2) {
                return false;
            }
            me.order = after.order - GAP;
        } else if (before != null) {
            if (before.order > Long.MAX_VALUE / 2) {
                return false;
            }
            me.order = before.order + GAP;
        } else {
            me.order = 0;
        }
        return true;
    }

    /** Spaces the keys {@link #GAP} apart again; chains stay sorted because relative order is kept. */
    private void renumber() {
        long key = -(length / 2L) * GAP;
        for (MatchEntryState e = head; e != null; e = e.next) {
            e.order = key;
            key += GAP;
        }
    }

    private static void chainInsert(ExactIndex.Chain chain, MatchEntryState me) {
        MatchEntryState p = chain.tail;
        while (p != null && p.order > me.order) {
            p = p.chainPrev;
        }
        // me goes right after p (or at the head when p is null).
        MatchEntryState n = p == null ? chain.head : p.chainNext;
        me.chainPrev = p;
        me.chainNext = n;
        if (p == null) {
            chain.head = me;
        } else {
            p.chainNext = me;
        }
        if (n == null) {
            chain.tail = me;
        } else {
            n.chainPrev = me;
        }
    }

    private static void chainRemove(ExactIndex.Chain chain, MatchEntryState me) {
        MatchEntryState p = me.chainPrev;
        MatchEntryState n = me.chainNext;
        if (p == null) {
            chain.head = n;
        } else {
            p.chainNext = n;
        }
        if (n == null) {
            chain.tail = p;
        } else {
            n.chainPrev = p;
        }
        me.chainPrev = null;
        me.chainNext = null;
    }

    /**
     * Visits, in list order, the entries whose bits may match {@code bits}: its bucket merged with the wildcard chain.
     */
    static final class Cursor {
        private @Nullable MatchEntryState exact;
        private @Nullable MatchEntryState wildcard;

        void start(MatchList list, long bits) {
            ExactIndex.Bucket bucket = list.index.get(bits);
            exact = bucket == null ? null : bucket.head;
            wildcard = list.wild.head;
        }

        /** The next candidate; the cursor has moved past it, so the caller may unlink it. */
        @Nullable MatchEntryState next() {
            MatchEntryState e = exact;
            MatchEntryState w = wildcard;
            if (e != null && (w == null || e.order < w.order)) {
                exact = e.chainNext;
                return e;
            }
            if (w != null) {
                wildcard = w.chainNext;
                return w;
            }
            return null;
        }
    }
}
