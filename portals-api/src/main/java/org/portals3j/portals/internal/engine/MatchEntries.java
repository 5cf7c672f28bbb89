package org.portals3j.portals.internal.engine;

import org.portals3j.portals.AttachedEntry;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;

/**
 * The match entry calls: PtlMEAttach, PtlMEAttachAny, PtlMEInsert and PtlMEUnlink, and the limits on a
 * portal's match list. Each call takes the engine lock itself.
 */
final class MatchEntries {
    private final LibraryState library;

    MatchEntries(LibraryState library) {
        this.library = library;
    }

    /** PtlMEAttach (Portals 3.2 spec §3.7.1). */
    long meAttach(long niHandle, int portal, ProcessId matchId, long matchBits, long ignoreBits,
                  Unlink unlink, InsertPosition position) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            if (portal < 0 || portal > ni.limits.maxPtableIndex()) {
                throw new PortalsException(ReturnCode.INV_PTINDEX, "portal index " + portal + " is outside 0.."
                        + ni.limits.maxPtableIndex()
                        + (portal == -1 ? " (PTL_PT_INDEX_ANY is valid only in PtlACEntry, A-61)" : ""));
            }
            library.requireMatchId(matchId);
            MatchList list = ni.portals[portal];
            MatchEntryState me = newMe(ni, list, portal, matchId, matchBits, ignoreBits, unlink);
            list.insert(me, null, position);
            return ni.handleOf(me);
        } finally {
            library.release();
        }
    }

    /** PtlMEAttachAny (Portals 3.2 spec §3.7.2): the lowest portal index whose match list is empty. */
    AttachedEntry meAttachAny(long niHandle, ProcessId matchId, long matchBits, long ignoreBits,
                              Unlink unlink) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            library.requireMatchId(matchId);
            for (int portal = 0; portal < ni.portals.length; portal++) {
                MatchList list = ni.portals[portal];
                if (list.length == 0) {
                    MatchEntryState me = newMe(ni, list, portal, matchId, matchBits, ignoreBits, unlink);
                    list.insert(me, null, InsertPosition.AFTER);
                    return new AttachedEntry(portal, new MeHandle(ni.handleOf(me)));
                }
            }
            throw new PortalsException(ReturnCode.PT_FULL, "every portal index (0.." + ni.limits.maxPtableIndex()
                    + ") already has a match list");
        } finally {
            library.release();
        }
    }

    /**
     * PtlMEInsert (Portals 3.2 spec §3.7.3), with the unlink argument of the argument table and the examples.
     */
    long meInsert(long current, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink,
                  InsertPosition position) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(current, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState cur = ni.liveMe(current);
            library.requireMatchId(matchId);
            MatchList list = ni.portals[cur.portal];
            MatchEntryState me = newMe(ni, list, cur.portal, matchId, matchBits, ignoreBits, unlink);
            list.insert(me, cur, position);
            return ni.handleOf(me);
        } finally {
            library.release();
        }
    }

    private MatchEntryState newMe(NetworkInterfaceState ni, MatchList list, int portal, ProcessId matchId,
                                  long matchBits, long ignoreBits, Unlink unlink) {
        if (list.length >= library.config.maxMatchListLength()) {
            throw new PortalsException(ReturnCode.ML_TOOLONG, "the match list of portal " + portal + " already has "
                    + list.length + " entries, the most this interface allows (A-07)");
        }
        MatchEntryState me = ni.mes.allocate();
        if (me == null) {
            throw new PortalsException(ReturnCode.NOSPACE, "the interface already has max_match_entries = "
                    + ni.limits.maxMatchEntries() + " match entries");
        }
        me.portal = portal;
        me.matchNid = matchId.nid();
        me.matchPid = matchId.pid();
        me.matchBits = matchBits;
        me.ignoreBits = ignoreBits;
        me.unlink = unlink;
        me.md = null;
        return me;
    }

    /**
     * PtlMEUnlink (Portals 3.2 spec §3.7.4): removes the entry and releases its MD. No UNLINK event (the unlink is
     * explicit). If operations are pending on the MD they complete and their END events are still
     * logged; the MD's handle dies at once.
     */
    void meUnlink(long meHandle) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(meHandle, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState me = ni.liveMe(meHandle);
            MemoryDescriptorState md = me.md;
            if (md != null) {
                md.me = null;
                me.md = null;
                ni.mds.retire(md);
                if (md.pending == 0) {
                    ni.freeMd(md);
                } else {
                    md.zombie = true;
                }
            }
            ni.removeMe(me);
        } finally {
            library.release();
        }
    }
}
