package mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BackgroundDup;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.InterCommunicators;

/**
 * An inter-communicator between two disjoint groups, made by {@link Comm#createIntercomm} (called on the peer
 * communicator), {@link #dup()} or {@link #clone()}. Point-to-point ranks name the <em>remote</em> group;
 * {@code getSize}, {@code getRank} and {@code getGroup} describe the local one. The blocking collectives of
 * {@link Comm} act between the groups (MPI 4.1 section 6.2.2): the root of {@code bcast}, {@code reduce},
 * {@code gather(v)} and {@code scatter(v)} passes {@code MPI.ROOT}, the rest of its group {@code MPI.PROC_NULL}, and
 * the other group the root's rank in it; their in-place forms are {@code ERR_COMM}. {@code reduceScatter} gives each
 * group the other's reduction, and the nonblocking collectives run the same algorithms
 * ({@code org.portals3j.mpi.internal.InterCollectives}). Those of dynamic processes ({@code spawn},
 * {@code accept}, {@code connect}) are out of scope: {@link #getParent()} answers "was I spawned?" as a job of
 * fixed size must: no.
 */
public final class Intercomm extends Comm {
    /** An inter-communicator this rank made, or a null one ({@code own} null). */
    Intercomm(@Nullable CommState own) {
        super(own);
    }

    /** The communicator an {@code iDup} of {@code parent} makes in the background. */
    Intercomm(CommState parent, BackgroundDup dup) {
        super(parent, dup);
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public Intercomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** The same groups in new contexts; collective over both groups. */
    @Override
    public Intercomm dup() throws MPIException {
        return new Intercomm(derive(InterCommunicators::dup));
    }

    /**
     * {@link Comm#iDup()} of an intercommunicator: the same groups in new contexts, agreed across both groups in the
     * background; the result is usable once its request ({@code getRequest()}) completes.
     */
    @Override
    public Intercomm iDup() throws MPIException {
        return iDupAs(Intercomm::new);
    }

    /** {@link #dup()}, with {@code info}'s hints on the new communicator instead of this one's. */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return new Intercomm(dupState(InterCommunicators::dup, info));
    }

    /** The size of the remote group. */
    public int getRemoteSize() throws MPIException {
        return state().size();
    }

    /** The remote group (this process is not in it: its {@code getRank()} is {@code MPI.UNDEFINED}). */
    public Group getRemoteGroup() throws MPIException {
        CommState c = state();
        return new Group(c.jobRanks(), c.engine().rank());
    }

    /**
     * An intracommunicator of both groups: the group that passes {@code high} false first, each in its order; if
     * both groups pass the same value, the group whose first process has the lower job rank first (MPI 4.1 section
     * 7.6.2 leaves that order open). Collective over both groups; every process of a group passes the same value.
     */
    public Intracomm merge(boolean high) throws MPIException {
        return new Intracomm(derive((c, ids) -> InterCommunicators.merge(c, ids, high)));
    }

    /**
     * {@code MPI_COMM_GET_PARENT}: the communicator to the processes that spawned this one; a null communicator
     * ({@link #isNull()}), since no process of a Portals3J job is spawned.
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm(null);
    }
}
