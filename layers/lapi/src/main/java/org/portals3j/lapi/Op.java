package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MeHandle;

/**
 * One operation this task started (Amsend, Put or Get) and has not seen end: a reusable slot of {@link OriginOps}.
 * Its id travels in the packet and comes back in the target's replies; the slot's generation in the id's high bits
 * makes a stale or forged reply miss.
 */
final class Op {
    final int slot;
    int generation;
    long id;
    int tgt = -1;
    boolean get;
    @Nullable LapiCounter orgCntr;
    @Nullable LapiCounter cmplCntr;
    boolean orgDone;
    boolean dataDone;
    boolean finalSeen;
    int finalFlags;
    /** The buffer exposed on the source portal (rendezvous data, Get destination), or null. */
    @Nullable MeHandle exposure;
    boolean exposureDone;

    Op(int slot) {
        this.slot = slot;
    }

    void reset() {
        tgt = -1;
        get = false;
        orgCntr = null;
        cmplCntr = null;
        orgDone = false;
        dataDone = false;
        finalSeen = false;
        finalFlags = 0;
        exposure = null;
        exposureDone = false;
    }
}
