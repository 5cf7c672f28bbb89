package org.portals3j.isotach;

/**
 * Where the token manager runs (the report's TM was a device on the switch, Isotach report §1.1.3, pp. 1-2; ours is
 * software).
 *
 * <p>{@link #IN_RANK}: inside host 0's process, driven by the same message handler and poll calls as host 0's
 * switch interface unit; no extra thread. {@link #OWN_PROCESS}: the job's last rank runs only the token manager
 * ({@link IsotachNet#runTokenManager}); it is not a host, so {@code get_number_of_hosts} excludes it (Isotach report
 * App. A.2, pp. 95-96).
 */
public enum TmPlacement {
    IN_RANK,
    OWN_PROCESS
}
