package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.Consumer;

/**
 * How the members of a new communicator agree on its context id without a central server, safely when threads of
 * one rank make communicators at the same time (MPI 4.1 section 11.6.3 allows it under {@code THREAD_MULTIPLE}).
 *
 * <p>An agreement runs over some ranks of a parent communicator (all of them for {@code dup}, {@code split},
 * {@code create}, {@code splitType}; the group's for {@code createGroup}) on the parent's collective context, with a
 * tag of its own ({@link #tag}), so that it never matches another collective on the parent, blocking or not (an
 * {@code iDup} agrees in the background while the program goes on). Each has a key, the same on every member: the
 * parent's context id, then the agreement's number among those on the parent (the parent's members start them in
 * the same order, as MPI requires of collectives), or {@code createGroup}'s tag.
 *
 * <p>The rounds, each an all-reduce (dissemination, ceil(log2 n) exchanges) of two numbers:
 * <ol>
 *   <li>presence: once it completes every member has joined, and the agreement may hold its rank's right to claim
 *       ({@link ContextIds});</li>
 *   <li>then, until one succeeds: each member contributes whether it holds its rank's right and, if so, its rank's
 *       lowest unused id; the reduction is the minimum of the first and the maximum of the second. If every member
 *       held the right, the maximum is unused on every member: each claims it and gives the right back. Otherwise
 *       the holders give it back and all go round again.</li>
 * </ol>
 * Why it ends: among the agreements whose members are all present, the one with the lowest key gets the right on
 * every member as soon as its current holder's round ends (rounds never block on the right), and no other can
 * take it from there; an agreement whose members are not all present never holds the right, so it cannot stop one
 * that the missing members must finish first. With one thread per rank the right is always free: two rounds. An
 * intercommunicator's agreement ({@link #agreeAcross}) runs the same rounds over both of its groups.
 */
final class ContextAgreement {
    /**
     * Bits 31 and 30 of the tag mark the agreements on a collective context (bit 31 alone: the nonblocking
     * collectives, {@link CollectiveSchedule}); bit 29 a {@code createGroup}'s.
     */
    private static final int AGREEMENT_TAG = 0xC000_0000;
    private static final int GROUP_TAG = 0x2000_0000;
    private static final int VALUE_BITS = 0x1FFF_FFFF;

    private ContextAgreement() {
    }

    /** The key of the {@code number}-th agreement on a parent of context {@code context}. */
    static long numberedKey(int context, int number) {
        return (long) context << 33 | (number & 0x7FFF_FFFFL);
    }

    /** The key of a {@code createGroup} with {@code tag} on a parent of context {@code context}. */
    static long groupKey(int context, int tag) {
        return (long) context << 33 | 1L << 32 | (tag & 0xFFFF_FFFFL);
    }

    /** The tag of the messages of agreement {@code key} on the parent's collective context. */
    static int tag(long key) {
        boolean group = (key & 1L << 32) != 0;
        return AGREEMENT_TAG | (group ? GROUP_TAG : 0) | (int) (key & VALUE_BITS);
    }

    /**
     * Agrees on a new context id with the ranks {@code members} of {@code parent} (in the same order on every
     * member; the caller is one of them) and claims it on this rank.
     */
    static int agree(CommState parent, int[] members, ContextIds ids, long key) {
        int me = -1;
        for (int i = 0; i < members.length; i++) {
            if (members[i] == parent.rank()) {
                me = i;
            }
        }
        if (me < 0) {
            throw new IllegalArgumentException("rank " + parent.rank() + " is not among the members");
        }
        CollectiveChannel ch = new CollectiveChannel(parent);
        int tag = tag(key);
        int at = me;
        return rounds(parent.engine(), ids, key, 1, value -> reduce(ch, members, at, tag, value));
    }

    /**
     * {@link #agree} over both groups of the intercommunicator {@code inter}: each round's all-reduce is one in the
     * local group (its hidden collective context), a swap of the two leaders' results on {@code inter}'s collective
     * context, and the leader's send of the combined values to the rest of its group, all with the agreement's tag.
     * Claims {@code pairs} pairs from the agreed id {@code C} on this rank: 2 ({@code C} and {@code C + 2}) for an
     * intercommunicator, 1 for the intracommunicator of a {@code merge}.
     */
    static int agreeAcross(CommState inter, ContextIds ids, long key, int pairs) {
        CommState local = inter.localGroup();
        if (local == null) {
            throw new IllegalStateException(inter.name() + " is not an intercommunicator");
        }
        int n = local.size();
        int[] members = new int[n];
        for (int i = 0; i < n; i++) {
            members[i] = i;
        }
        CollectiveChannel group = new CollectiveChannel(local);
        CollectiveChannel between = new CollectiveChannel(inter);
        int tag = tag(key);
        LeaderSwap swap = (out, in) -> between.exchange(MemorySegment.ofArray(out), 0, MemorySegment.ofArray(in), 0,
                tag);
        return rounds(inter.engine(), ids, key, pairs, value -> reduceAcross(group, 0, swap, members, tag, value));
    }

    /** The two leaders' swap of one round's values in an agreement across two groups. */
    @FunctionalInterface
    interface LeaderSwap {
        /** Sends {@code out} to the other group's leader and receives its values into {@code in}. */
        void swap(int[] out, int[] in);
    }

    /**
     * {@link #agreeAcross} for {@code createIntercomm}, before the intercommunicator exists: the rounds' all-reduces
     * run in {@code local} on its collective context with the tag of {@code localKey} (the group's own agreement
     * key, {@link #numberedKey}), the leaders' swaps through {@code swap} (on the peer communicator), as agreement
     * {@code key} ({@link #interKey}, the same in both groups). Claims {@code C} and {@code C + 2} on this rank.
     */
    static int agreeCreating(CommState local, int leader, LeaderSwap swap, ContextIds ids, long key,
            long localKey) {
        int n = local.size();
        int[] members = new int[n];
        for (int i = 0; i < n; i++) {
            members[i] = i;
        }
        CollectiveChannel group = new CollectiveChannel(local);
        int tag = tag(localKey);
        return rounds(local.engine(), ids, key, 2, value -> reduceAcross(group, leader, swap, members, tag, value));
    }

    /** A numbered key ({@link #numberedKey}) in 31 bits: its context and the low 16 bits of its number. */
    static int compact(long numberedKey) {
        return (int) (numberedKey >>> 33) << 16 | (int) (numberedKey & 0xFFFF);
    }

    /**
     * The key of a {@code createIntercomm} whose groups' own keys are {@code a} and {@code b} ({@link #compact}):
     * both, the lower first, after a bit no other key has, so that it is the same in both groups and no other
     * agreement of a member has it.
     */
    static long interKey(int a, int b) {
        return 1L << 62 | (long) Math.min(a, b) << 31 | Math.max(a, b);
    }

    /**
     * The agreement's rounds, each an all-reduce ({@code reduce}: the minimum of element 0, the maximum of element
     * 1) among the members: a first one, so that every member has made its key present before any holds, then, until
     * all hold, one of "do I hold my key" and "the lowest id I have unused". Claims {@code pairs} pairs from the
     * agreed id. A member that gives up its hold waits a round, letting another thread's agreement on this rank on.
     */
    private static int rounds(PointToPoint engine, ContextIds ids, long key, int pairs, Consumer<int[]> reduce) {
        int[] value = new int[2];
        reduce.accept(value);
        ids.present(key);
        try {
            boolean first = true;
            while (true) {
                boolean holds = ids.tryHold(key);
                value[0] = holds ? 1 : 0;
                value[1] = holds ? ids.lowestUnused() : 0;
                reduce.accept(value);
                if (value[0] == 1) {
                    for (int i = pairs - 1; i >= 0; i--) {
                        ids.claim(value[1] + 2 * i);
                    }
                    return value[1];
                }
                ids.release(key);
                engine.changedLocally(); // another thread's agreement may wait for this one's hold
                engine.idleRound(first);
                first = false;
            }
        } finally {
            ids.gone(key);
            engine.changedLocally();
        }
    }

    /**
     * {@link #reduce} over both groups: in the local group, between the leaders ({@code leader} the local one's
     * rank), then from the leader to its group.
     */
    private static void reduceAcross(CollectiveChannel group, int leader, LeaderSwap between, int[] members, int tag,
            int[] value) {
        int me = group.rank();
        reduce(group, members, me, tag, value);
        MemorySegment out = MemorySegment.ofArray(value);
        if (me == leader) {
            int[] theirs = new int[2];
            between.swap(value, theirs);
            value[0] = Math.min(value[0], theirs[0]);
            value[1] = Math.max(value[1], theirs[1]);
            for (int r = 0; r < members.length; r++) {
                if (r != leader) {
                    group.send(out, r, tag);
                }
            }
        } else {
            group.receive(out, leader, tag);
        }
        group.endRound();
    }

    /** All-reduce of {@code value} by dissemination: the minimum of element 0, the maximum of element 1. */
    private static void reduce(CollectiveChannel ch, int[] members, int me, int tag, int[] value) {
        int n = members.length;
        int[] in = new int[2];
        MemorySegment out = MemorySegment.ofArray(value);
        MemorySegment incoming = MemorySegment.ofArray(in);
        for (int mask = 1; mask < n; mask <<= 1) {
            ch.exchange(out, members[(me + mask) % n], incoming, members[(me - mask + n) % n], tag);
            value[0] = Math.min(value[0], incoming.get(ValueLayout.JAVA_INT, 0));
            value[1] = Math.max(value[1], incoming.get(ValueLayout.JAVA_INT, 4));
        }
    }
}
