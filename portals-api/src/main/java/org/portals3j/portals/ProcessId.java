package org.portals3j.portals;

/**
 * {@code ptl_process_id_t}: a node id and a process id (Portals 3.2 spec §3.6.1).
 *
 * <p>Either field may be a wildcard where the spec allows one (match entries and access control
 * entries, Portals 3.2 spec §3.7.1.2, §3.10.1.2): {@link #NID_ANY}, {@link #PID_ANY}. The values are this
 * implementation's (the spec gives none): {@code -1}, i.e. {@code 0xFFFFFFFF} seen as an unsigned 32-bit C value. Any
 * other negative value is invalid ({@code PTL_INV_PROC}, A-62).
 */
public record ProcessId(int nid, int pid) {

    /** {@code PTL_NID_ANY}. */
    public static final int NID_ANY = -1;
    /** {@code PTL_PID_ANY}. */
    public static final int PID_ANY = -1;
    /** {@code {PTL_NID_ANY, PTL_PID_ANY}}: matches every process. */
    public static final ProcessId ANY = new ProcessId(NID_ANY, PID_ANY);

    public static ProcessId of(int nid, int pid) {
        return new ProcessId(nid, pid);
    }

    /** True if both fields are valid, wildcards allowed (a match or ACL pattern). */
    public boolean isValidPattern() {
        return nid >= NID_ANY && pid >= PID_ANY;
    }

    /** True if both fields are valid and neither is a wildcard (a concrete process). */
    public boolean isConcrete() {
        return nid >= 0 && pid >= 0;
    }

    /** Whether {@code (nid, pid)} is matched by this pattern. */
    public boolean matches(int otherNid, int otherPid) {
        return (nid == NID_ANY || nid == otherNid) && (pid == PID_ANY || pid == otherPid);
    }

    @Override
    public String toString() {
        return "{" + (nid == NID_ANY ? "NID_ANY" : Integer.toString(nid)) + ", "
                + (pid == PID_ANY ? "PID_ANY" : Integer.toString(pid)) + "}";
    }
}
