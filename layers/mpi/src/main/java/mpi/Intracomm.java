package mpi;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.OutOfScope;
import org.portals3j.mpi.internal.ReductionCollectives;

/**
 * An intra-communicator: the type of {@code MPI.COMM_WORLD}, {@code MPI.COMM_SELF} and of the communicators made
 * from them by {@code dup}, {@code split} and {@code create} (collective over this communicator; see
 * {@code org.portals3j.mpi.internal.Communicators}). Adds {@code scan} and {@code exScan} to the collectives of
 * {@link Comm}.
 *
 * <p>The dynamic-process members ({@code spawn}, {@code spawnMultiple}, {@code accept}, {@code connect}, the port
 * and name service) are out of scope (mpi-java-api.md section 3): each raises {@code MPI.ERR_UNSUPPORTED_OPERATION}
 * through this communicator's error handler, or {@code COMM_WORLD}'s for the static ones.
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
        collective(c -> ReductionCollectives.scan(c, sendbuf, recvbuf, items(count, type), base(type),
                Op.reduction(op, type),
                false, false));
    }

    /** In place. */
    public final void scan(@Nullable Object recvbuf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> ReductionCollectives.scan(c, null, recvbuf, items(count, type), base(type),
                Op.reduction(op, type),
                true, false));
    }

    /** The exclusive prefix reduction in rank order; rank 0's {@code recvbuf} is left as it was. */
    public final void exScan(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.scan(c, sendbuf, recvbuf, items(count, type), base(type),
                Op.reduction(op, type),
                false, true));
    }

    /** In place. */
    public final void exScan(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> ReductionCollectives.scan(c, null, buf, items(count, type), base(type),
                Op.reduction(op, type), true,
                true));
    }

    // ---- nonblocking scans (mpi-java-api.md section 2.9; the engine is described in Comm) ---------

    public final Request iScan(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.scan(s, sendbuf, recvbuf, items(count, type),
                base(type), Op.reduction(op, type), false, false), sendbuf, recvbuf);
    }

    /** In place. */
    public final Request iScan(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.scan(s, null, buf, items(count, type), base(type),
                Op.reduction(op, type), true, false), buf);
    }

    public final Request iExScan(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.scan(s, sendbuf, recvbuf, items(count, type),
                base(type), Op.reduction(op, type), false, true), sendbuf, recvbuf);
    }

    /** In place. */
    public final Request iExScan(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.scan(s, null, buf, items(count, type), base(type),
                Op.reduction(op, type), true, true), buf);
    }

    // ---- dynamic processes and name service (mpi-java-api.md section 2.12; out of scope) ----------

    public static String openPort() throws MPIException {
        throw MPI.unsupported("MPI_Open_port", OutOfScope.DYNAMIC);
    }

    public static String openPort(Info info) throws MPIException {
        throw MPI.unsupported("MPI_Open_port", OutOfScope.DYNAMIC);
    }

    public static void closePort(String name) throws MPIException {
        throw MPI.unsupported("MPI_Close_port", OutOfScope.DYNAMIC);
    }

    public final Intercomm accept(String port, int root) throws MPIException {
        throw unsupported("MPI_Comm_accept", OutOfScope.DYNAMIC);
    }

    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        throw unsupported("MPI_Comm_accept", OutOfScope.DYNAMIC);
    }

    public final Intercomm connect(String port, int root) throws MPIException {
        throw unsupported("MPI_Comm_connect", OutOfScope.DYNAMIC);
    }

    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        throw unsupported("MPI_Comm_connect", OutOfScope.DYNAMIC);
    }

    public static void publishName(String service, String port) throws MPIException {
        throw MPI.unsupported("MPI_Publish_name", OutOfScope.DYNAMIC);
    }

    public static void publishName(String service, Info info, String port) throws MPIException {
        throw MPI.unsupported("MPI_Publish_name", OutOfScope.DYNAMIC);
    }

    public static void unpublishName(String service, String port) throws MPIException {
        throw MPI.unsupported("MPI_Unpublish_name", OutOfScope.DYNAMIC);
    }

    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw MPI.unsupported("MPI_Unpublish_name", OutOfScope.DYNAMIC);
    }

    public static String lookupName(String service) throws MPIException {
        throw MPI.unsupported("MPI_Lookup_name", OutOfScope.DYNAMIC);
    }

    public static String lookupName(String service, Info info) throws MPIException {
        throw MPI.unsupported("MPI_Lookup_name", OutOfScope.DYNAMIC);
    }

    public final Intercomm spawn(String command, String @Nullable [] argv, int maxprocs, Info info, int root,
            int @Nullable [] errcodes) throws MPIException {
        throw unsupported("MPI_Comm_spawn", OutOfScope.DYNAMIC);
    }

    public final Intercomm spawnMultiple(String[] commands, String @Nullable [] @Nullable [] argv, int[] maxprocs,
            Info[] info, int root, int @Nullable [] errcodes) throws MPIException {
        throw unsupported("MPI_Comm_spawn_multiple", OutOfScope.DYNAMIC);
    }
}
