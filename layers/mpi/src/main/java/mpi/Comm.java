package mpi;

import java.nio.Buffer;
import java.util.Map;
import java.util.function.BiFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BackgroundDup;
import org.portals3j.mpi.internal.CollectiveSteps;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.ContextIds;
import org.portals3j.mpi.internal.JobAbort;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Neighbours;

/**
 * A communicator: identity, point-to-point, error handlers, management and blocking collectives (mpi-java-api.md
 * sections 2.1-2.3 and 2.6-2.8). The predefined {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} keep their state
 * (error handler, name) per calling rank, so the one static object serves every rank of a JVM that runs several; a
 * communicator made by {@code dup}, {@code split} or {@code create} belongs to the rank that made it.
 *
 * <p>Send modes: {@code send} and {@code iSend} go eagerly below the eager limit when the receiver has room for
 * this sender, by rendezvous otherwise; {@code sSend} and {@code isSend} always by rendezvous, so they complete only
 * once the receive has matched; {@code rSend} and {@code irSend} are standard sends (a legal implementation, section
 * 4.4). Nonblocking calls accept heap buffers unless {@code portals3j.mpi.strictBuffers} is set.
 */
public class Comm implements Freeable, Cloneable {
    static final int WORLD = 1;

    static final int SELF = 2;

    /** Which predefined communicator this is (0: none, a communicator this rank made). */
    private final int predefined;

    /** The state of a communicator this rank made (null: a null communicator, or an iDup not complete yet). */
    private volatile @Nullable CommState own;

    private volatile boolean freed;

    /** The iDup that makes this communicator, or null. */
    private final @Nullable BackgroundDup pending;

    /** {@link #getRequest()}: the request of that iDup, or null. */
    private final @Nullable Request request;

    Comm(int predefined) {
        this.predefined = predefined;
        this.own = null;
        this.pending = null;
        this.request = null;
    }

    /** A communicator made by this rank ({@code dup}, {@code split}, ...), or a null one if {@code own} is null. */
    Comm(@Nullable CommState own) {
        this.predefined = 0;
        this.own = own;
        this.freed = own == null;
        this.pending = null;
        this.request = null;
    }

    /** The communicator an {@code iDup} of {@code parent} makes in the background ({@code dup}'s request). */
    Comm(CommState parent, BackgroundDup dup) {
        this.predefined = 0;
        this.own = null;
        this.pending = dup;
        this.request = new Request(parent, dup);
    }

    /**
     * The calling rank's state of this communicator. Using a freed or null communicator is {@code ERR_COMM},
     * through the error handler it had (a null communicator from {@code split} or {@code create}: COMM_WORLD's).
     */
    final CommState state() throws MPIException {
        if (predefined == WORLD) {
            return MPI.process().world();
        } else if (predefined == SELF) {
            return MPI.process().self();
        }
        CommState c = own;
        BackgroundDup dup = pending;
        if (c == null && dup != null) {
            c = completed(dup);
        }
        if (c == null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_COMM, "a null communicator (from split with UNDEFINED,"
                    + " create on a process outside the group, or Intercomm.getParent) cannot be used");
        }
        MPI.check();
        if (freed) {
            throw MPI.raise(c, MPI.ERR_COMM, c.name() + " has been freed");
        }
        return c;
    }

    /** The size of the group this process is in (the local group of an intercommunicator). */
    public final int getSize() throws MPIException {
        return state().localSize();
    }

    public final int getRank() throws MPIException {
        return state().rank();
    }

    /** Whether this is a null communicator: after {@code free}, or from {@code split}/{@code create}. */
    public final boolean isNull() {
        return predefined == 0 && (own == null && pending == null || freed);
    }

    public final boolean isInter() throws MPIException {
        return state().isInter();
    }

    /**
     * {@code MPI.IDENT} (the same), {@code CONGRUENT}, {@code SIMILAR} or {@code UNEQUAL}; of two
     * intercommunicators, the weaker of the comparisons of their local and of their remote groups (MPI 4.1 section
     * 7.4.1), and {@code UNEQUAL} for an intercommunicator and an intracommunicator.
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        return CommManagement.compare(comm1, comm2);
    }

    /** The group this process is in (the local group of an intercommunicator). */
    public final Group getGroup() throws MPIException {
        CommState c = state();
        return new Group(c.localJobRanks(), c.engine().rank());
    }

    /** The topology: {@code MPI.CART} for a {@link CartComm}, none ({@code MPI.UNDEFINED}) for the others. */
    public final int getTopology() throws MPIException {
        state();
        return topologyKind();
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

    /**
     * Frees the communicator: it reads {@link #isNull()} afterwards, and operations under way on it still finish.
     * Collective in MPI; here it needs no message (context ids are not reused). Freeing {@code COMM_WORLD} or
     * {@code COMM_SELF} is an error ({@code ERR_COMM}).
     */
    @Override
    public void free() throws MPIException {
        CommState c = state();
        if (predefined != 0) {
            throw MPI.raise(c, MPI.ERR_COMM, c.name() + " cannot be freed");
        }
        freed = true;
        c.attributes().clear();
    }

    /**
     * {@code MPI_COMM_DISCONNECT}: without dynamic processes (mpi-java-api.md section 3) there is no other job to
     * wait for, so it is {@link #free()}.
     */
    public final void disconnect() throws MPIException {
        free();
    }

    /** {@code ERR_UNSUPPORTED_OPERATION} for {@code call} through this communicator's error handler. */
    final MPIException unsupported(String call, String why) throws MPIException {
        return MPI.unsupported(state(), call, why);
    }

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

    public final void send(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        CommPointToPoint.send(state(), buf, count, type, dest, tag);
    }

    /** A synchronous send: returns once the matching receive has started (rendezvous). */
    public final void sSend(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        CommPointToPoint.sSend(state(), buf, count, type, dest, tag);
    }

    /** A ready send, done as a standard send. */
    public final void rSend(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        CommPointToPoint.rSend(state(), buf, count, type, dest, tag);
    }

    public final Status recv(@Nullable Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return CommPointToPoint.recv(state(), buf, count, type, source, tag);
    }

    /** Sends and receives at the same time (both are under way together, so two ranks may exchange). */
    public final Status sendRecv(@Nullable Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 @Nullable Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        return CommPointToPoint.sendRecv(state(), sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                recvtype, source, recvtag);
    }

    /** {@link #sendRecv} with one buffer: the data to send is staged in a copy first. */
    public final Status sendRecvReplace(@Nullable Object buf, int count, Datatype type, int dest, int sendtag,
                                        int source, int recvtag) throws MPIException {
        return CommPointToPoint.sendRecvReplace(state(), buf, count, type, dest, sendtag, source, recvtag);
    }

    /** Waits until a message {@code source}/{@code tag} would receive has arrived; does not receive it. */
    public final Status probe(int source, int tag) throws MPIException {
        return CommPointToPoint.probe(state(), source, tag);
    }

    /** The status of a message {@code source}/{@code tag} would receive, or null if none has arrived. */
    public final @Nullable Status iProbe(int source, int tag) throws MPIException {
        return CommPointToPoint.iProbe(state(), source, tag);
    }

    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.iSend(state(), buf, count, type, dest, tag);
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.isSend(state(), buf, count, type, dest, tag);
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.irSend(state(), buf, count, type, dest, tag);
    }

    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return CommPointToPoint.iRecv(state(), buf, count, type, source, tag);
    }

    /**
     * A buffered-mode send: the message is copied into the buffer given to {@code MPI.attachBuffer} and the call
     * returns; {@code ERR_BUFFER} if none is attached or it has no room left (nothing is sent).
     */
    public final void bSend(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        CommPointToPoint.bSend(state(), buf, count, type, dest, tag);
    }

    /** {@link #bSend}, as a request that is complete at once (the message has been copied). */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.ibSend(state(), buf, count, type, dest, tag);
    }

    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.sendInit(state(), buf, count, type, dest, tag);
    }

    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.bSendInit(state(), buf, count, type, dest, tag);
    }

    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.sSendInit(state(), buf, count, type, dest, tag);
    }

    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return CommPointToPoint.rSendInit(state(), buf, count, type, dest, tag);
    }

    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return CommPointToPoint.recvInit(state(), buf, count, type, source, tag);
    }

    /** Packs {@code incount} items of {@code inbuf} into {@code outbuf} at {@code position}; the new position. */
    public final int pack(@Nullable Object inbuf, int incount, Datatype type, byte[] outbuf, int position)
            throws MPIException {
        return CommPointToPoint.pack(state(), inbuf, incount, type, outbuf, position);
    }

    /** Unpacks {@code outcount} items into {@code outbuf} from {@code inbuf} at {@code position}; the new position. */
    public final int unpack(byte[] inbuf, int position, @Nullable Object outbuf, int outcount, Datatype type)
            throws MPIException {
        return CommPointToPoint.unpack(state(), inbuf, position, outbuf, outcount, type);
    }

    /** The bytes {@code incount} items of {@code type} take packed. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        return CommPointToPoint.packSize(state(), incount, type);
    }

    /** Makes a communicator from the calling rank's state of this one and its context ids. */
    @FunctionalInterface
    interface Derivation {
        @Nullable CommState make(CommState parent, ContextIds ids);
    }

    /** Runs {@code how} (collective over this communicator); its errors go through this one's handler. */
    final @Nullable CommState derive(Derivation how) throws MPIException {
        CommState c = state();
        try {
            return how.make(c, MPI.process().contexts());
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** A communicator of the same group in a new context; collective. */
    public Comm dup() throws MPIException {
        return new Comm(derive(Communicators::dup));
    }

    /** A collective on the calling rank's state; its {@code MpiError} goes through the error handler. */
    @FunctionalInterface
    interface Collective {
        void run(CommState c);
    }

    final void collective(Collective call) throws MPIException {
        CommState c = state();
        CommCollectives.run(c, () -> call.run(c));
    }

    public final void barrier() throws MPIException {
        CommCollectives.barrier(state());
    }

    public final void bcast(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        CommCollectives.bcast(state(), buf, count, type, root);
    }

    public final void gather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        CommCollectives.gather(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    /** In place: the root receives into {@code buf} (its own block already there), the others send from it. */
    public final void gather(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        CommCollectives.gather(state(), buf, count, type, root);
    }

    public final void gatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype,
            int root) throws MPIException {
        CommCollectives.gatherv(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root);
    }

    /** The root's in-place form. */
    public final void gatherv(@Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        CommCollectives.gatherv(state(), recvbuf, recvcount, displs, recvtype, root);
    }

    /** The form of the ranks other than the root. */
    public final void gatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype, int root)
            throws MPIException {
        CommCollectives.gatherv(state(), sendbuf, sendcount, sendtype, root);
    }

    public final void scatter(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        CommCollectives.scatter(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    /** In place: the root sends from {@code buf} (keeping its own block), the others receive into it. */
    public final void scatter(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        CommCollectives.scatter(state(), buf, count, type, root);
    }

    public final void scatterv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        CommCollectives.scatterv(state(), sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root);
    }

    /** The root's in-place form. */
    public final void scatterv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, int root) throws MPIException {
        CommCollectives.scatterv(state(), sendbuf, sendcount, displs, sendtype, root);
    }

    /** The form of the ranks other than the root. */
    public final void scatterv(@Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        CommCollectives.scatterv(state(), recvbuf, recvcount, recvtype, root);
    }

    public final void allGather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.allGather(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final void allGather(@Nullable Object buf, int count, @Nullable Datatype type) throws MPIException {
        CommCollectives.allGather(state(), buf, count, type);
    }

    public final void allGatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype)
            throws MPIException {
        CommCollectives.allGatherv(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype);
    }

    /** In place: each rank's block is already at its place in {@code recvbuf}. */
    public final void allGatherv(@Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.allGatherv(state(), recvbuf, recvcount, displs, recvtype);
    }

    public final void allToAll(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.allToAll(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    public final void allToAllv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.allToAllv(state(), sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                recvtype);
    }

    /** {@code recvbuf} is used at the root only (it may be null elsewhere). */
    public final void reduce(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op, int root) throws MPIException {
        CommCollectives.reduce(state(), sendbuf, recvbuf, count, type, op, root);
    }

    /** In place: {@code buf} is the input everywhere and the output at the root. */
    public final void reduce(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op, int root)
            throws MPIException {
        CommCollectives.reduce(state(), buf, count, type, op, root);
    }

    public final void allReduce(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        CommCollectives.allReduce(state(), sendbuf, recvbuf, count, type, op);
    }

    public final void allReduce(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        CommCollectives.allReduce(state(), buf, count, type, op);
    }

    public final void reduceScatter(@Nullable Object sendbuf, @Nullable Object recvbuf, int @Nullable [] recvcounts,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        CommCollectives.reduceScatter(state(), sendbuf, recvbuf, recvcounts, type, op);
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final void reduceScatter(@Nullable Object buf, int @Nullable [] counts, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        CommCollectives.reduceScatter(state(), buf, counts, type, op);
    }

    public final void reduceScatterBlock(@Nullable Object sendbuf, @Nullable Object recvbuf, int recvcount,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        CommCollectives.reduceScatterBlock(state(), sendbuf, recvbuf, recvcount, type, op);
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final void reduceScatterBlock(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        CommCollectives.reduceScatterBlock(state(), buf, count, type, op);
    }

    /** Lays a collective's steps down on the calling rank's state of this communicator. */
    @FunctionalInterface
    interface Schedule {
        void record(CollectiveSteps steps, CommState c);
    }

    /**
     * Starts the nonblocking collective {@code plan}, its argument errors through the error handler (nothing has
     * been sent then); {@code buffers}: the {@code Buffer} arguments, checked against the strict-buffer switch.
     */
    final Request startCollective(Schedule plan, @Nullable Buffer... buffers) throws MPIException {
        CommState c = state();
        return CommNonblockingCollectives.start(c, s -> plan.record(s, c), buffers);
    }

    public final Request iBarrier() throws MPIException {
        return CommNonblockingCollectives.iBarrier(state());
    }

    public final Request iBcast(@Nullable Buffer buf, int count, @Nullable Datatype type, int root)
            throws MPIException {
        return CommNonblockingCollectives.iBcast(state(), buf, count, type, root);
    }

    public final Request iGather(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        return CommNonblockingCollectives.iGather(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root);
    }

    /** In place: the root receives into {@code buf} (its own block already there), the others send from it. */
    public final Request iGather(@Nullable Buffer buf, int count, @Nullable Datatype type, int root)
            throws MPIException {
        return CommNonblockingCollectives.iGather(state(), buf, count, type, root);
    }

    public final Request iGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype,
            int root) throws MPIException {
        return CommNonblockingCollectives.iGatherv(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, root);
    }

    /** The root's in-place form. */
    public final Request iGatherv(@Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        return CommNonblockingCollectives.iGatherv(state(), recvbuf, recvcount, displs, recvtype, root);
    }

    /** The form of the ranks other than the root. */
    public final Request iGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype, int root)
            throws MPIException {
        return CommNonblockingCollectives.iGatherv(state(), sendbuf, sendcount, sendtype, root);
    }

    public final Request iScatter(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        return CommNonblockingCollectives.iScatter(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root);
    }

    /** In place: the root sends from {@code buf} (keeping its own block), the others receive into it. */
    public final Request iScatter(@Nullable Buffer buf, int count, @Nullable Datatype type, int root)
            throws MPIException {
        return CommNonblockingCollectives.iScatter(state(), buf, count, type, root);
    }

    public final Request iScatterv(@Nullable Buffer sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype,
            int root) throws MPIException {
        return CommNonblockingCollectives.iScatterv(state(), sendbuf, sendcount, displs, sendtype, recvbuf, recvcount,
                recvtype, root);
    }

    /** The root's in-place form. */
    public final Request iScatterv(@Nullable Buffer sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, int root) throws MPIException {
        return CommNonblockingCollectives.iScatterv(state(), sendbuf, sendcount, displs, sendtype, root);
    }

    /** The form of the ranks other than the root. */
    public final Request iScatterv(@Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        return CommNonblockingCollectives.iScatterv(state(), recvbuf, recvcount, recvtype, root);
    }

    public final Request iAllGather(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return CommNonblockingCollectives.iAllGather(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype);
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final Request iAllGather(@Nullable Buffer buf, int count, @Nullable Datatype type) throws MPIException {
        return CommNonblockingCollectives.iAllGather(state(), buf, count, type);
    }

    public final Request iAllGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype)
            throws MPIException {
        return CommNonblockingCollectives.iAllGatherv(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype);
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final Request iAllGatherv(@Nullable Buffer buf, int @Nullable [] count, int @Nullable [] displs,
            @Nullable Datatype type) throws MPIException {
        return CommNonblockingCollectives.iAllGatherv(state(), buf, count, displs, type);
    }

    public final Request iAllToAll(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return CommNonblockingCollectives.iAllToAll(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype);
    }

    public final Request iAllToAllv(@Nullable Buffer sendbuf, int @Nullable [] sendcount, int @Nullable [] sdispls,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int @Nullable [] recvcount,
            int @Nullable [] rdispls, @Nullable Datatype recvtype) throws MPIException {
        return CommNonblockingCollectives.iAllToAllv(state(), sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype);
    }

    /** {@code recvbuf} is used at the root only (it may be null elsewhere). */
    public final Request iReduce(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op, int root) throws MPIException {
        return CommNonblockingCollectives.iReduce(state(), sendbuf, recvbuf, count, type, op, root);
    }

    /** In place: {@code buf} is the input everywhere and the output at the root. */
    public final Request iReduce(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op,
            int root) throws MPIException {
        return CommNonblockingCollectives.iReduce(state(), buf, count, type, op, root);
    }

    public final Request iAllReduce(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return CommNonblockingCollectives.iAllReduce(state(), sendbuf, recvbuf, count, type, op);
    }

    /** In place. */
    public final Request iAllReduce(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        return CommNonblockingCollectives.iAllReduce(state(), buf, count, type, op);
    }

    public final Request iReduceScatter(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf,
            int @Nullable [] recvcounts, @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return CommNonblockingCollectives.iReduceScatter(state(), sendbuf, recvbuf, recvcounts, type, op);
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final Request iReduceScatter(@Nullable Buffer buf, int @Nullable [] counts, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return CommNonblockingCollectives.iReduceScatter(state(), buf, counts, type, op);
    }

    public final Request iReduceScatterBlock(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int recvcount,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return CommNonblockingCollectives.iReduceScatterBlock(state(), sendbuf, recvbuf, recvcount, type, op);
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final Request iReduceScatterBlock(@Nullable Buffer buf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return CommNonblockingCollectives.iReduceScatterBlock(state(), buf, count, type, op);
    }

    /** Applies {@code op} locally: {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]}; errors go to COMM_WORLD's handler. */
    public static void reduceLocal(@Nullable Object inBuf, @Nullable Object inOutBuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        CommCollectives.reduceLocal(inBuf, inOutBuf, count, type, op);
    }

    /** The split type of {@code Intracomm.splitType} for the ranks of one node (a compile-time constant). */
    public static final int TYPE_SHARED = 0;

    /** The request of the {@code iDup} that made this communicator; null for any other communicator. */
    public final @Nullable Request getRequest() {
        return request;
    }

    /**
     * The state an {@code iDup} agreed on, once it has (the new communicator may be used as soon as its agreement is
     * over; before, it is ERR_COMM: MPI 4.1 section 7.4.2 makes that erroneous), ERR_COMM if it failed.
     */
    private CommState completed(BackgroundDup dup) throws MPIException {
        if (!dup.isDone()) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_COMM, "this communicator comes from an iDup that has not"
                    + " completed: complete getRequest() (waitFor, test) before using it");
        }
        CommState c = dup.result();
        if (c == null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_COMM, "the iDup that made this communicator failed ("
                    + dup.errorMessage() + "): it cannot be used");
        }
        own = c;
        return c;
    }

    /**
     * Starts duplicating this communicator and returns the new one at once; its agreement goes on in the background
     * (collective: every rank calls it in the same order with its other collectives on this communicator), and
     * {@link #getRequest()} of the result completes when it is usable.
     */
    public Comm iDup() throws MPIException {
        return iDupAs(Comm::new);
    }

    /** {@link #dup()}, with {@code info}'s hints on the new communicator instead of this one's. */
    public Comm dupWithInfo(Info info) throws MPIException {
        return new Comm(dupState(Communicators::dup, info));
    }

    /**
     * The shared body of the covariant {@code iDup}s: starts the background duplication of this communicator's state
     * and wraps it as {@code make} says (keeping a subclass's topology).
     */
    final <T extends Comm> T iDupAs(BiFunction<CommState, BackgroundDup, T> make) throws MPIException {
        CommState c = state();
        return make.apply(c, BackgroundDup.start(c, MPI.process().contexts(), s -> s));
    }

    /** The shared body of the covariant {@code dupWithInfo}s: {@code how}'s new state, with {@code info}'s hints. */
    final @Nullable CommState dupState(Derivation how, Info info) throws MPIException {
        Map<String, String> hints = CommManagement.hintsOf(info);
        return CommManagement.withHints(derive(how), hints);
    }

    /**
     * Sets the info hints of this communicator (they replace those it had). The layer acts on none of them (MPI 4.1
     * section 7.4.4 lets it ignore any), but keeps them all for {@link #getInfo()}. {@code INFO_NULL} or a freed
     * info is ERR_INFO.
     */
    public final void setInfo(Info info) throws MPIException {
        CommManagement.setInfo(state(), info);
    }

    /** A new info object with the hints of this communicator. */
    public final Info getInfo() throws MPIException {
        return CommManagement.getInfo(state());
    }

    /** A new attribute keyval for communicators: {@code dup} copies its values, {@code free} drops them. */
    public static int createKeyval() throws MPIException {
        return CommManagement.createKeyval();
    }

    /** Frees {@code keyval}; values already set stay until deleted or their communicator is freed. */
    public static void freeKeyval(int keyval) throws MPIException {
        CommManagement.freeKeyval(keyval);
    }

    /**
     * Caches {@code value} (serialised: it must be {@code Serializable}, else {@code MPIException} whatever the
     * error handler, as in Open MPI) under {@code keyval}. A predefined, freed or datatype keyval is ERR_KEYVAL.
     */
    public final void setAttr(int keyval, @Nullable Object value) throws MPIException {
        CommManagement.setAttr(state(), keyval, value);
    }

    /**
     * A copy of the value cached under {@code keyval}, or null if none is; a predefined key gives its
     * {@code Integer} ({@code WTIME_IS_GLOBAL} a {@code Boolean}) on {@code COMM_WORLD} and its dups, null on
     * other communicators.
     */
    public final @Nullable Object getAttr(int keyval) throws MPIException {
        return CommManagement.getAttr(state(), keyval);
    }

    /** Deletes the value cached under {@code keyval} (nothing happens if none is). */
    public final void deleteAttr(int keyval) throws MPIException {
        CommManagement.deleteAttr(state(), keyval);
    }

    /** What {@link #getTopology()} answers; the topology communicators override it. */
    int topologyKind() {
        return MPI.UNDEFINED;
    }

    /** Rank {@code rank}'s neighbourhood in this communicator's topology; null for one without a topology. */
    @Nullable Neighbours neighbours(int rank) {
        return null;
    }

    /** Sends {@code sendbuf} to every out-neighbour; receives block {@code i} from in-neighbour {@code i}. */
    public final void neighborAllGather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.neighborAllGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    /** {@link #neighborAllGather} with a count and a displacement per in-neighbour. */
    public final void neighborAllGatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int[] recvcount, int[] displs, @Nullable Datatype recvtype)
            throws MPIException {
        CommCollectives.neighborAllGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype);
    }

    /** Sends block {@code i} to out-neighbour {@code i}; receives block {@code i} from in-neighbour {@code i}. */
    public final void neighborAllToAll(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.neighborAllToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    /** {@link #neighborAllToAll} with a count and a displacement per neighbour. */
    public final void neighborAllToAllv(@Nullable Object sendbuf, int[] sendcount, int[] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int[] recvcount, int[] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        CommCollectives.neighborAllToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                recvtype);
    }

    /** {@link #neighborAllGather} as a nonblocking collective. */
    public final Request iNeighborAllGather(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return CommNonblockingCollectives.iNeighborAllGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype);
    }

    /** {@link #neighborAllGatherv} as a nonblocking collective. */
    public final Request iNeighborAllGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int[] recvcount, int[] displs, @Nullable Datatype recvtype)
            throws MPIException {
        return CommNonblockingCollectives.iNeighborAllGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype);
    }

    /** {@link #neighborAllToAll} as a nonblocking collective. */
    public final Request iNeighborAllToAll(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return CommNonblockingCollectives.iNeighborAllToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype);
    }

    /** {@link #neighborAllToAllv} as a nonblocking collective. */
    public final Request iNeighborAllToAllv(@Nullable Buffer sendbuf, int[] sendcount, int[] sdispls,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int[] recvcount, int[] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        return CommNonblockingCollectives.iNeighborAllToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype);
    }

    /**
     * {@code MPI_INTERCOMM_CREATE}, called on the peer communicator by every process of two disjoint groups: an
     * intercommunicator between {@code localComm} (an intracommunicator, else {@code ERR_COMM}) and the group whose
     * leader is rank {@code remoteLeader} of this communicator; the leaders ({@code localLeader} in
     * {@code localComm}) swap their groups on this communicator with {@code tag}. Collective over both groups.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        return CommManagement.createIntercomm(state(), localComm, localLeader, remoteLeader, tag);
    }

    /**
     * Every rank sends {@code sendCount[j]} items of {@code sendTypes[j]} from byte {@code sDispls[j]} of
     * {@code sendBuf} to rank {@code j}, and receives {@code recvCount[i]} items of {@code recvTypes[i]} from rank
     * {@code i} at byte {@code rDispls[i]} of {@code recvBuf}. The types of one buffer must share its base type
     * (ERR_TYPE otherwise: a Java buffer has one element type); a type with a count of 0 is not looked at.
     */
    public final void allToAllw(@Nullable Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            @Nullable Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        CommCollectives.allToAllw(state(), sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
                recvTypes);
    }

    /**
     * {@link #allToAllw} as a nonblocking collective (the schedule of {@code iAllToAllv} on packed copies): the send
     * blocks are packed by the call, the received ones unpacked into {@code recvBuf} by the schedule's last step.
     */
    public final Request iAllToAllw(@Nullable Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            @Nullable Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        return CommNonblockingCollectives.iAllToAllw(state(), sendBuf, sendCount, sDispls, sendTypes, recvBuf,
                recvCount, rDispls, recvTypes);
    }
}
