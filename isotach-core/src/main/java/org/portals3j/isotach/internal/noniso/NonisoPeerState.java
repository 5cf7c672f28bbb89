package org.portals3j.isotach.internal.noniso;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the noniso module's host side and transport side publish to each other, per peer: counts and flags only
 * (control frames carry state, not events), each written by one side and read by the other.
 */
final class NonisoPeerState {
    /** Host -> transport: slots freed per source (receive_h), for the overrun check. */
    final AtomicLongArray freedPublished;
    /** Host -> transport: slots assigned per destination (remote_t), bounds a credit a peer may report. */
    final AtomicLongArray assignedPublished;
    /**
     * Transport -> host: highest freed count each destination reported (remote_h, Isotach report §7.1.3, pp. 59-62).
     */
    final AtomicLongArray peerFreed;
    /** Transport -> host: a credit request from this peer awaits an answer (Isotach report §8.3.4, pp. 73-76). */
    final AtomicIntegerArray creditRequested;
    /** Transport -> host: the last barrier generation each peer reached. */
    final AtomicLongArray barrierSeen;
    /** Host -> transport: our barrier generation (a peer can be at most one ahead of it). */
    final AtomicLong barrierGenerationPublished = new AtomicLong();
    /** Transport -> host: the peer has failed. */
    final AtomicIntegerArray peerFailed;
    /** Transport -> host: some entry of {@link #creditRequested} may be set. */
    private volatile boolean anyCreditRequest;

    NonisoPeerState(int hosts) {
        freedPublished = new AtomicLongArray(hosts);
        assignedPublished = new AtomicLongArray(hosts);
        peerFreed = new AtomicLongArray(hosts);
        creditRequested = new AtomicIntegerArray(hosts);
        barrierSeen = new AtomicLongArray(hosts);
        peerFailed = new AtomicIntegerArray(hosts);
    }

    /** Transport side: {@code peer} asked for credit. */
    void creditRequestedBy(int peer) {
        creditRequested.set(peer, 1);
        anyCreditRequest = true;
    }

    /** Host side: whether a credit request may be waiting; clears the hint (a request arriving after sets it again). */
    boolean takeCreditRequestHint() {
        if (!anyCreditRequest) {
            return false;
        }
        anyCreditRequest = false; // cleared before the scan: a request arriving during it sets it again
        return true;
    }
}
