package org.portals3j.portals.internal.engine;

/**
 * One entry of the access control table (Portals 3.2 spec §3.9.8.2): who may use which portal with this cookie. Portals
 * 3.3 added the job id ({@code PtlACEntry}'s {@code job_id}, 3.3 &sect;3.12.1); a 3.2 entry allows every job
 * ({@code PTL_JID_ANY}).
 */
final class AccessControlEntry {
    /** {@code PTL_JID_ANY}. */
    static final int JID_ANY = -1;

    /** False until written: an unwritten entry allows nothing. */
    boolean set;
    int nid;
    int pid;
    int uid;
    int jid = JID_ANY;
    int portal;

    void set(int entryNid, int entryPid, int entryUid, int entryJid, int entryPortal) {
        this.set = true;
        this.nid = entryNid;
        this.pid = entryPid;
        this.uid = entryUid;
        this.jid = entryJid;
        this.portal = entryPortal;
    }

    /**
     * The checks of Portals 3.2 spec §4.2 plus the uid and, in 3.3, the job id: the reference
     * implementation checks it beside the uid ({@code p3lib/move.c}, "P3.3 API spec: sections 2.3 &amp;
     * 3.12.1").
     */
    boolean allows(int initiatorNid, int initiatorPid, int user, int job, int requestPortal) {
        return set
                && (nid == -1 || nid == initiatorNid)
                && (pid == -1 || pid == initiatorPid)
                && (uid == -1 || uid == user)
                && (jid == JID_ANY || jid == job)
                && (portal == -1 || portal == requestPortal);
    }
}
