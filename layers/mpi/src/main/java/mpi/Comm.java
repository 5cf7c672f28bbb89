package mpi;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Buffers;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.JobAbort;
import org.portals3j.mpi.internal.Messages;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Operation;
import org.portals3j.mpi.internal.ProbeResult;
import org.portals3j.mpi.internal.ReceiveOperation;
import org.portals3j.mpi.internal.SendOperation;

/**
 * A communicator: identity, point-to-point, error handlers (mpi-java-api.md sections 2.1-2.3, 2.7). This version has
 * the predefined communicators {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF}; their state (error handler, name)
 * is the calling rank's, so the one static object serves every rank of a JVM that runs several.
 *
 * <p>Send modes: {@code send} and {@code iSend} go eagerly below the eager limit when the receiver has room for
 * this sender, by rendezvous otherwise; {@code sSend} and {@code isSend} always by rendezvous, so they complete only
 * once the receive has matched; {@code rSend} and {@code irSend} are standard sends (a legal implementation, section
 * 4.4). Nonblocking calls accept heap buffers unless {@code portals3j.mpi.strictBuffers} is set.
 */
public class Comm implements Freeable, Cloneable {
    static final int WORLD = 1;
    static final int SELF = 2;

    /** Which predefined communicator this is. */
    private final int predefined;

    Comm(int predefined) {
        this.predefined = predefined;
    }

    /** The calling rank's state of this communicator. */
    final CommState state() throws MPIException {
        return predefined == WORLD ? MPI.process().world() : MPI.process().self();
    }

    // ---- identity ---------------------------------------------------------------------------------

    public final int getSize() throws MPIException {
        return state().size();
    }

    public final int getRank() throws MPIException {
        return state().rank();
    }

    /** Whether this is a null communicator: never, for the predefined ones. */
    public final boolean isNull() {
        return false;
    }

    public final boolean isInter() throws MPIException {
        state();
        return false;
    }

    /** {@code MPI.IDENT} (the same), {@code CONGRUENT}, {@code SIMILAR} or {@code UNEQUAL}. */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        CommState a = comm1.state();
        CommState b = comm2.state();
        if (a == b) {
            return MPI.IDENT;
        }
        int groups = Group.compareRanks(a.jobRanks(), b.jobRanks());
        return groups == MPI.IDENT ? MPI.CONGRUENT : groups;
    }

    public final Group getGroup() throws MPIException {
        CommState c = state();
        return new Group(c.jobRanks(), c.engine().rank());
    }

    /** The topology: none ({@code MPI.UNDEFINED}) for these communicators. */
    public final int getTopology() throws MPIException {
        state();
        return MPI.UNDEFINED;
    }

    /** Ends the whole job with {@code errorcode} (the exit status of this rank, see the package documentation). */
    public final void abort(int errorcode) throws MPIException {
        CommState c = state();
        throw JobAbort.abort(c.engine().rank(), errorcode, "abort(" + errorcode + ") called on " + c.name());
    }

    public final void setName(String name) throws MPIException {
        state().setName(name);
    }

    public final String getName() throws MPIException {
        return state().name();
    }

    /** Freeing {@code COMM_WORLD} or {@code COMM_SELF} is an error ({@code ERR_COMM}). */
    @Override
    public void free() throws MPIException {
        CommState c = state();
        throw MPI.raise(c, MPI.ERR_COMM, c.name() + " cannot be freed");
    }

    // ---- error handlers ---------------------------------------------------------------------------

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        state().setErrorHandling(errhandler.handling);
    }

    public final Errhandler getErrhandler() throws MPIException {
        return Errhandler.of(state().errorHandling());
    }

    /** Takes the path of a real error with code {@code errorCode}: the job ends, or an exception is thrown. */
    public final void callErrhandler(int errorCode) throws MPIException {
        CommState c = state();
        throw MPI.raise(c, errorCode, "callErrhandler(" + errorCode + ") on " + c.name());
    }

    // ---- blocking point-to-point -----------------------------------------------------------------

    public final void send(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend(buf, count, type, dest, tag, false);
    }

    /** A synchronous send: returns once the matching receive has started (rendezvous). */
    public final void sSend(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend(buf, count, type, dest, tag, true);
    }

    /** A ready send, done as a standard send. */
    public final void rSend(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend(buf, count, type, dest, tag, false);
    }

    public final Status recv(@Nullable Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        CommState c = state();
        try {
            ReceiveOperation op = Messages.receive(c, buf, count, base(type), source, tag);
            c.engine().await(op);
            return Request.statusOf(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** Sends and receives at the same time (both are under way together, so two ranks may exchange). */
    public final Status sendRecv(@Nullable Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 @Nullable Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        CommState c = state();
        try {
            ReceiveOperation in = Messages.receive(c, recvbuf, recvcount, base(recvtype), source, recvtag);
            SendOperation out = Messages.send(c, sendbuf, sendcount, base(sendtype), dest, sendtag, false);
            c.engine().await(out);
            c.engine().await(in);
            Request.check(c, out);
            return Request.statusOf(c, in);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** {@link #sendRecv} with one buffer: the data to send is staged in a copy first. */
    public final Status sendRecvReplace(@Nullable Object buf, int count, Datatype type, int dest, int sendtag,
                                        int source, int recvtag) throws MPIException {
        CommState c = state();
        try {
            BaseType t = base(type);
            Object staged = t == null ? buf : Buffers.copyOf(buf, count, t);
            return sendRecv(staged, count, type, dest, sendtag, buf, count, type, source, recvtag);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** Waits until a message {@code source}/{@code tag} would receive has arrived; does not receive it. */
    public final Status probe(int source, int tag) throws MPIException {
        CommState c = state();
        try {
            boolean first = true;
            while (true) {
                ProbeResult r = Messages.probe(c, source, tag);
                if (r != null) {
                    return new Status(r.source(), r.tag(), MPI.SUCCESS, r.bytes(), false);
                }
                c.engine().idleRound(first);
                first = false;
            }
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** The status of a message {@code source}/{@code tag} would receive, or null if none has arrived. */
    public final @Nullable Status iProbe(int source, int tag) throws MPIException {
        CommState c = state();
        try {
            ProbeResult r = Messages.probe(c, source, tag);
            return r == null ? null : new Status(r.source(), r.tag(), MPI.SUCCESS, r.bytes(), false);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    // ---- nonblocking point-to-point --------------------------------------------------------------

    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend(buf, count, type, dest, tag, false);
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend(buf, count, type, dest, tag, true);
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend(buf, count, type, dest, tag, false);
    }

    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        CommState c = state();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            return new Request(c, Messages.receive(c, buf, count, base(type), source, tag));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private void blockingSend(@Nullable Object buf, int count, Datatype type, int dest, int tag, boolean synchronous)
            throws MPIException {
        CommState c = state();
        try {
            SendOperation op = Messages.send(c, buf, count, base(type), dest, tag, synchronous);
            c.engine().await(op);
            Request.check(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private Request nonblockingSend(Buffer buf, int count, Datatype type, int dest, int tag, boolean synchronous)
            throws MPIException {
        CommState c = state();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            Operation op = Messages.send(c, buf, count, base(type), dest, tag, synchronous);
            return new Request(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private static @Nullable BaseType base(@Nullable Datatype type) {
        return type == null ? null : type.base();
    }
}
