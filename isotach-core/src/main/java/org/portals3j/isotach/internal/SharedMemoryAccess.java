package org.portals3j.isotach.internal;

import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.smm.SharedReferenceKind;
import org.portals3j.isotach.internal.smm.SharedMemory;

/**
 * The shared-memory calls of A.6 on an open net: an access becomes one sRef per copy it reaches (a read: the nearest),
 * queued in the current isochron all or nothing (Isotach report §3.4.1, pp. 14-18; §6.2.8, pp. 41-45); the caller polls
 * afterwards.
 */
final class SharedMemoryAccess {
    private static final int SUCCESS = 0;
    private static final int FAILURE = 1;

    private final int me;
    private final IsotachHost host;
    private final SharedMemory sharedMemory;
    /** The copies of the address being changed (one per host at most). */
    private final int[] copies;

    SharedMemoryAccess(int me, int hosts, IsotachHost host, SharedMemory sharedMemory) {
        this.me = me;
        this.host = host;
        this.sharedMemory = sharedMemory;
        this.copies = new int[hosts];
    }

    /** iso_read: a read of the nearest copy into {@code lvar}. */
    int read(long address, IsoVar lvar, boolean last) {
        int target = sharedMemory.nearestCopy(address);
        if (target < 0 || (target == me ? !host.roomForSelfRef() : !host.roomForNetRefs(1))) {
            return FAILURE;
        }
        int slot = sharedMemory.allocateRead(lvar);
        if (slot < 0) {
            return FAILURE; // I-089: read_cap reads outstanding
        }
        reference(target, SharedReferenceKind.READ, address, slot);
        return endAccess(last);
    }

    /**
     * A change (write, sched, assign): one sRef per copy, all or nothing (Isotach report §3.4.1, pp. 14-18; §6.2.8,
     * pp. 41-45).
     */
    int change(SharedReferenceKind kind, long address, long value, boolean last) {
        int n = sharedMemory.copies(address, copies);
        if (n < 0 || sharedMemory.checkChange(kind, address) != SUCCESS) {
            return FAILURE;
        }
        int net = 0;
        boolean self = false;
        for (int i = 0; i < n; i++) {
            if (copies[i] == me) {
                self = true;
            } else {
                net++;
            }
        }
        if ((self && !host.roomForSelfRef()) || !host.roomForNetRefs(net)) {
            return FAILURE;
        }
        for (int i = 0; i < n; i++) {
            reference(copies[i], kind, address, value);
        }
        sharedMemory.noteIssued(kind, address);
        return endAccess(last);
    }

    private void reference(int target, SharedReferenceKind kind, long address, long operand) {
        if (target == me) {
            host.selfRef(kind.code(), address, operand);
        } else {
            host.netRef(target, kind.code(), address, operand);
        }
    }

    private int endAccess(boolean last) {
        if (last) {
            host.isoEnd();
        }
        return SUCCESS;
    }
}
