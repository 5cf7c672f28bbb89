package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Making intercommunicators without process management (MPI 4.1 section 7.6): {@code createIntercomm}, {@code dup} of
 * one, and {@code merge} into an intracommunicator. An intercommunicator takes two pairs of context ids, {@code C} for
 * its traffic between the groups and {@code C + 2} for its local group's hidden intracommunicator; {@code C} must be
 * free at every process of both groups, so all of them run one keyed agreement ({@link
 * ContextAgreement#agreeAcross}): its all-reduces in each group, the leaders swapping each round's result, so that
 * it is safe beside other agreements (another thread's, an {@code iDup}'s in the background) on the same rank.
 * {@code createIntercomm}'s agreement runs before the intercommunicator exists: its key is made of both groups' own
 * keys, and its leaders swap on the peer communicator with the caller's tag, as do their first swaps (sizes, keys,
 * groups); the others go on the intercommunicator's or local group's hidden collective context. The new
 * communicator inherits the error handler of the local communicator (or of the intercommunicator it is made from).
 */
public final class InterCommunicators {
    /** The most ranks a group may have (the match bits' source field). */
    private static final int MAX_GROUP = MatchBits.MAX_RANKS;

    private InterCommunicators() {
    }

    /**
     * {@code createIntercomm}, called on {@code peer} by every process of two disjoint groups: {@code local} is this
     * process's group, {@code localLeader} its leader's rank in it, {@code remoteLeader} the other leader's rank in
     * {@code peer} (used at the leader only).
     */
    public static CommState create(CommState peer, CommState local, ContextIds ids, int localLeader,
            int remoteLeader, int tag) {
        if (local.isInter()) {
            throw new MpiError(ErrorClass.COMM, "localComm must be an intracommunicator (" + local.name()
                    + " is an intercommunicator)");
        }
        if (localLeader < 0 || localLeader >= local.size()) {
            throw new MpiError(ErrorClass.RANK, "invalid localLeader " + localLeader + ": " + local.name()
                    + " has ranks 0.." + (local.size() - 1));
        }
        long localKey = Communicators.agreementKey(local);
        int[] header = new int[2]; // the remote group's size and its own agreement key
        int[] remote = new int[0];
        if (local.rank() == localLeader) {
            if (remoteLeader < 0 || remoteLeader >= peer.size() || remoteLeader == peer.rank()) {
                throw new MpiError(ErrorClass.RANK, "invalid remoteLeader " + remoteLeader + ": it must be the"
                        + " other group's leader, a rank of " + peer.name() + " other than this one");
            }
            swap(peer, new int[] {local.size(), ContextAgreement.compact(localKey)}, header, remoteLeader, tag);
            if (header[0] < 1 || header[0] > MAX_GROUP) {
                throw new MpiError(ErrorClass.OTHER, "the remote leader announced a group of " + header[0]
                        + " processes: it must be 1.." + MAX_GROUP);
            }
            remote = new int[header[0]];
            swap(peer, local.jobRanks(), remote, remoteLeader, tag);
        }
        CollectiveChannel group = new CollectiveChannel(local);
        RootedCollectives.bcast(group, MemorySegment.ofArray(header), localLeader);
        if (local.rank() != localLeader) {
            remote = new int[header[0]];
        }
        RootedCollectives.bcast(group, MemorySegment.ofArray(remote), localLeader);
        checkDisjoint(local, remote, peer.engine().size());
        long key = ContextAgreement.interKey(ContextAgreement.compact(localKey), header[1]);
        int context = ContextAgreement.agreeCreating(local, localLeader,
                (out, in) -> swap(peer, out, in, remoteLeader, tag), ids, key, localKey);
        return inter(local, context, local.jobRanks(), remote, "MPI INTERCOMMUNICATOR " + context + " CREATE FROM "
                + peer.name());
    }

    /**
     * A copy of {@code inter} (the same groups) in new contexts; collective over both groups. The ids come from a
     * keyed agreement across the groups ({@link ContextAgreement#agreeAcross}), so that an {@code iDup} may run it in
     * the background beside the program's other collectives and agreements.
     */
    public static CommState dup(CommState inter, ContextIds ids) {
        return dup(inter, inter.cached(), ids, Communicators.agreementKey(inter));
    }

    /** {@link #dup} as agreement {@code key}, with what {@code inter} had cached when the call was made. */
    static CommState dup(CommState inter, CommState.Cached cached, ContextIds ids, long key) {
        int context = ContextAgreement.agreeAcross(inter, ids, key, 2);
        CommState c = inter(inter, context, inter.localJobRanks(), inter.jobRanks(), "MPI INTERCOMMUNICATOR "
                + context + " DUP FROM " + inter.name());
        c.adopt(cached);
        return c;
    }

    /**
     * {@code merge(high)}: an intracommunicator of both groups, the group that passed {@code high} false first;
     * when both passed the same, the group whose leader has the lower job rank first (MPI leaves the order open).
     * Its id comes from the keyed agreement across the groups ({@link ContextAgreement#agreeAcross}, one pair), so
     * that an {@code iDup} of {@code inter} agreeing in the background on this rank cannot take the same id.
     */
    public static CommState merge(CommState inter, ContextIds ids, boolean high) {
        int context = ContextAgreement.agreeAcross(inter, ids, Communicators.agreementKey(inter), 1);
        boolean remoteHigh = remoteFlag(inter, high ? 1 : 0) != 0;
        int[] mine = inter.localJobRanks();
        int[] theirs = inter.jobRanks();
        boolean first = high == remoteHigh ? mine[0] < theirs[0] : !high;
        int[] low = first ? mine : theirs;
        int[] upper = first ? theirs : mine;
        int[] members = Arrays.copyOf(low, low.length + upper.length);
        System.arraycopy(upper, 0, members, low.length, upper.length);
        CommState merged = new CommState(inter.engine(), context, members, "MPI COMMUNICATOR " + context
                + " MERGE FROM " + inter.name());
        merged.setErrorHandling(inter.errorHandling());
        return merged;
    }

    /** A new intercommunicator's state: {@code context} between the groups, {@code context + 2} in the local one. */
    private static CommState inter(CommState from, int context, int[] localRanks, int[] remote, String name) {
        CommState localGroup = new CommState(from.engine(), context + 2, localRanks, name + " (LOCAL GROUP)");
        CommState c = CommState.inter(from.engine(), context, remote, localGroup, name);
        c.setErrorHandling(from.errorHandling());
        return c;
    }

    /**
     * The {@code flag} the other group's leader passed: the leaders swap theirs on {@code inter}'s collective
     * context, and each broadcasts the other's in its group.
     */
    private static int remoteFlag(CommState inter, int flag) {
        CommState local = inter.localGroup();
        if (local == null) {
            throw new IllegalStateException(inter.name() + " is not an intercommunicator");
        }
        int[] theirs = new int[1];
        if (local.rank() == 0) {
            new CollectiveChannel(inter).exchange(MemorySegment.ofArray(new int[] {flag}), 0,
                    MemorySegment.ofArray(theirs), 0, CollectiveChannel.BCAST);
        }
        RootedCollectives.bcast(new CollectiveChannel(local), MemorySegment.ofArray(theirs), 0);
        return theirs[0];
    }

    /** The leader's swap with the other leader on the peer communicator (both at once: no deadlock). */
    private static void swap(CommState peer, int[] out, int[] in, int remoteLeader, int tag) {
        ReceiveOperation r = Messages.receive(peer, in, in.length, BaseType.INT, remoteLeader, tag);
        SendOperation s = Messages.send(peer, out, out.length, BaseType.INT, remoteLeader, tag, false);
        peer.engine().await(s);
        peer.engine().await(r);
        for (Operation op : new Operation[] {s, r}) {
            if (op.errorClass() != ErrorClass.SUCCESS) {
                throw new MpiError(op.errorClass(), "in createIntercomm's exchange between the leaders: "
                        + op.errorMessage() + " (do both leaders name each other and pass the same tag?)");
            }
        }
    }

    /** ERR_COMM unless {@code remote} names processes of the job outside {@code local}. */
    private static void checkDisjoint(CommState local, int[] remote, int jobSize) {
        int[] mine = local.jobRanks();
        Arrays.sort(mine);
        for (int r : remote) {
            if (r < 0 || r >= jobSize) {
                throw new MpiError(ErrorClass.OTHER, "the remote group names job rank " + r + ", outside the job");
            }
            if (Arrays.binarySearch(mine, r) >= 0) {
                throw new MpiError(ErrorClass.COMM, "the local and remote groups of createIntercomm share job rank "
                        + r + ": they must be disjoint");
            }
        }
    }
}
