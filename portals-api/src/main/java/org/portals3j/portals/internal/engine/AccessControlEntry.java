package org.portals3j.portals.internal.engine;

/** One entry of the access control table (L7263): who may use which portal with this cookie. */
final class AccessControlEntry {
    /** False until written: an unwritten entry allows nothing. */
    boolean set;
    int nid;
    int pid;
    int uid;
    int portal;

    void set(int entryNid, int entryPid, int entryUid, int entryPortal) {
        this.set = true;
        this.nid = entryNid;
        this.pid = entryPid;
        this.uid = entryUid;
        this.portal = entryPortal;
    }

    /** The checks of L15085-L15100 plus the uid. */
    boolean allows(int initiatorNid, int initiatorPid, int user, int requestPortal) {
        return set
                && (nid == -1 || nid == initiatorNid)
                && (pid == -1 || pid == initiatorPid)
                && (uid == -1 || uid == user)
                && (portal == -1 || portal == requestPortal);
    }
}
