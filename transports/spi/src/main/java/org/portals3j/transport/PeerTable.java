package org.portals3j.transport;

import java.util.Arrays;
import java.util.List;

/** The ranks of a job and their process ids. Immutable. */
public final class PeerTable {
    private final JobMember[] members;
    private final int[] rankByNid;

    public PeerTable(List<JobMember> members) {
        this.members = members.toArray(new JobMember[0]);
        int maxNid = -1;
        for (int r = 0; r < this.members.length; r++) {
            JobMember m = this.members[r];
            if (m.rank() != r) {
                throw new IllegalArgumentException("member " + r + " has rank " + m.rank());
            }
            maxNid = Math.max(maxNid, m.nid());
        }
        this.rankByNid = new int[maxNid + 1];
        Arrays.fill(rankByNid, -1);
        for (JobMember m : this.members) {
            if (rankByNid[m.nid()] != -1) {
                throw new IllegalArgumentException("nid " + m.nid() + " given to ranks " + rankByNid[m.nid()]
                        + " and " + m.rank());
            }
            rankByNid[m.nid()] = m.rank();
        }
    }

    public int size() {
        return members.length;
    }

    public JobMember member(int rank) {
        return members[rank];
    }

    /** The rank whose endpoint has node id {@code nid}, or -1 if no rank has it. */
    public int rankOfNid(int nid) {
        return nid >= 0 && nid < rankByNid.length ? rankByNid[nid] : -1;
    }

    public List<JobMember> members() {
        return List.of(members);
    }
}
