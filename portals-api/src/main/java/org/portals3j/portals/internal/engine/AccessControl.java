package org.portals3j.portals.internal.engine;

import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;

/**
 * The access control call, PtlACEntry: writes an entry of an interface's access control table, which the
 * {@link Target} consults before matching. Takes the engine lock itself.
 */
final class AccessControl {
    private final LibraryState library;

    AccessControl(LibraryState library) {
        this.library = library;
    }

    /** PtlACEntry (Portals 3.2 spec §3.10.1): overwrites entry {@code index}. */
    void acEntry(long niHandle, int index, ProcessId matchId, int uid, int portal) {
        acEntry(niHandle, index, matchId, uid, AccessControlEntry.JID_ANY, portal);
    }

    /**
     * PtlACEntry; in Portals 3.3 with the job id allowed ({@code PTL_JID_ANY} = -1 for any), 3.3
     * &sect;3.12.1. A 3.2 entry allows any job.
     */
    void acEntry(long niHandle, int index, ProcessId matchId, int uid, int jobId, int portal) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            if (index < 0 || index > ni.limits.maxAtableIndex()) {
                throw new PortalsException(ReturnCode.AC_INV_INDEX, "access control index " + index + " is outside 0.."
                        + ni.limits.maxAtableIndex());
            }
            library.requireMatchId(matchId);
            if (portal != -1 && (portal < 0 || portal > ni.limits.maxPtableIndex())) {
                throw new PortalsException(ReturnCode.PT_INV_INDEX, "portal index " + portal
                        + " is neither PTL_PT_INDEX_ANY nor in 0.." + ni.limits.maxPtableIndex());
            }
            ni.acl[index].set(matchId.nid(), matchId.pid(), uid, jobId, portal);
        } finally {
            library.release();
        }
    }
}
