package org.portals3j.transport;

/**
 * One rank of a job.
 *
 * @param rank the rank, {@code 0 <= rank < size}
 * @param nid  the node id of its endpoint, which transports route by
 * @param pid  the process id the rank starts with (the upper layer may let a process take another,
 *             well-known, pid; transports never look at it)
 * @param uid  the user id the rank runs as
 */
public record JobMember(int rank, int nid, int pid, int uid) {

    public JobMember {
        if (rank < 0 || nid < 0 || pid < 0) {
            throw new IllegalArgumentException("rank, nid and pid must not be negative: " + this);
        }
    }
}
