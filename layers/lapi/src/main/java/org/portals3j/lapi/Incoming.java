package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MdHandle;

/**
 * One request this task received and has not answered yet: a reusable record of the target side, from the
 * header's arrival to the final reply. A request holds one of its origin's credits, so there are never more of
 * these in use than the credits this task granted.
 */
final class Incoming {
    int src;
    int kind;
    long msgId;
    long tgtCntr;
    long len;
    /** The origin allows the final reply to be deferred ({@link Wire#F_LAZY}), and the flush epoch it sent it in. */
    boolean lazy;
    int epoch;
    @Nullable CompletionHandler completion;
    @Nullable Object userInfo;
    RetFlag retFlag = RetFlag.NORMAL;
    /** The header handler's {@code ctl_flags}. */
    int ctlFlags;
    /** The data was discarded; the origin unlinks what it exposed (O-06, O-09). */
    boolean failed;
    /** No handler or no memory at the given address: tgt_cntr is not touched (O-09). */
    boolean unresolved;
    /** A DATA_DONE reply has gone already. */
    boolean dataDoneSent;
    /** The MD bound for a fetch (rendezvous) or a Get's reply, or null. */
    @Nullable MdHandle md;

    void reset() {
        lazy = false;
        completion = null;
        userInfo = null;
        retFlag = RetFlag.NORMAL;
        ctlFlags = 0;
        failed = false;
        unresolved = false;
        dataDoneSent = false;
        md = null;
    }
}
