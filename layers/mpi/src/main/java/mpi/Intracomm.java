package mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.ReductionCollectives;

/**
 * An intra-communicator: the type of {@code MPI.COMM_WORLD}, {@code MPI.COMM_SELF} and of the communicators made
 * from them by {@code dup}, {@code split} and {@code create} (collective over this communicator; see
 * {@code org.portals3j.mpi.internal.Communicators}). Adds {@code scan} and {@code exScan} to the collectives of
 * {@link Comm}.
 */
public class Intracomm extends Comm {
    Intracomm(int predefined) {
        super(predefined);
    }

    /** A communicator this rank made, or a null one ({@code own} null). */
    Intracomm(@Nullable CommState own) {
        super(own);
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        return new Intracomm(derive(Communicators::dup));
    }

    /**
     * The communicator of the ranks that pass the same {@code colour}, ranked by {@code key} and then by rank in
     * this one; a null communicator for colour {@code MPI.UNDEFINED}. A negative colour other than that is
     * {@code ERR_ARG}.
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        return new Intracomm(derive((c, ids) -> Communicators.split(c, ids, colour, key)));
    }

    /**
     * The communicator of {@code group} (a subgroup of this one's, the same on every rank); a null communicator on
     * the ranks outside it. A group with a process outside this communicator is {@code ERR_GROUP}.
     */
    public final Intracomm create(Group group) throws MPIException {
        state();
        int[] members = group.members();
        return new Intracomm(derive((c, ids) -> Communicators.create(c, ids, members)));
    }

    /** The inclusive prefix reduction in rank order. */
    public final void scan(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.scan(c, sendbuf, recvbuf, count, base(type), Op.reduction(op, type),
                false, false));
    }

    /** In place. */
    public final void scan(@Nullable Object recvbuf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> ReductionCollectives.scan(c, null, recvbuf, count, base(type), Op.reduction(op, type),
                true, false));
    }

    /** The exclusive prefix reduction in rank order; rank 0's {@code recvbuf} is left as it was. */
    public final void exScan(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.scan(c, sendbuf, recvbuf, count, base(type), Op.reduction(op, type),
                false, true));
    }

    /** In place. */
    public final void exScan(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> ReductionCollectives.scan(c, null, buf, count, base(type), Op.reduction(op, type), true,
                true));
    }
}
