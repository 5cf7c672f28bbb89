package mpi;

import java.nio.Buffer;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Buffers;
import org.portals3j.mpi.internal.Collectives;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.ContextIds;
import org.portals3j.mpi.internal.JobAbort;
import org.portals3j.mpi.internal.Messages;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Operation;
import org.portals3j.mpi.internal.Packing;
import org.portals3j.mpi.internal.ProbeResult;
import org.portals3j.mpi.internal.ReceiveOperation;
import org.portals3j.mpi.internal.ReductionCollectives;
import org.portals3j.mpi.internal.RootedCollectives;
import org.portals3j.mpi.internal.RootedForm;
import org.portals3j.mpi.internal.SendOperation;

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
    /** The state of a communicator this rank made (null: a null communicator). */
    private final @Nullable CommState own;
    private volatile boolean freed;

    Comm(int predefined) {
        this.predefined = predefined;
        this.own = null;
    }

    /** A communicator made by this rank ({@code dup}, {@code split}, ...), or a null one if {@code own} is null. */
    Comm(@Nullable CommState own) {
        this.predefined = 0;
        this.own = own;
        this.freed = own == null;
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

    // ---- identity ---------------------------------------------------------------------------------

    public final int getSize() throws MPIException {
        return state().size();
    }

    public final int getRank() throws MPIException {
        return state().rank();
    }

    /** Whether this is a null communicator: after {@code free}, or from {@code split}/{@code create}. */
    public final boolean isNull() {
        return predefined == 0 && (own == null || freed);
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
            ReceiveOperation op = Messages.blockingReceive(c, buf, items(count, type), base(type), source, tag);
            try {
                c.engine().await(op);
                return Request.statusOf(c, op);
            } finally {
                Messages.finished(op);
            }
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
            ReceiveOperation in = Messages.receive(c, recvbuf, items(recvcount, recvtype), base(recvtype), source,
                    recvtag);
            SendOperation out = Messages.send(c, sendbuf, items(sendcount, sendtype), base(sendtype), dest,
                    sendtag, false);
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
            Object staged = t == null ? buf : Buffers.copyOf(buf, items(count, type), t);
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
            return new Request(c, Messages.receive(c, buf, items(count, type), base(type), source, tag));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private void blockingSend(@Nullable Object buf, int count, Datatype type, int dest, int tag, boolean synchronous)
            throws MPIException {
        CommState c = state();
        try {
            SendOperation op = Messages.blockingSend(c, buf, items(count, type), base(type), dest, tag,
                    synchronous);
            try {
                c.engine().await(op);
                Request.check(c, op);
            } finally {
                Messages.finished(op);
            }
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private Request nonblockingSend(Buffer buf, int count, Datatype type, int dest, int tag, boolean synchronous)
            throws MPIException {
        CommState c = state();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            Operation op = Messages.send(c, buf, items(count, type), base(type), dest, tag, synchronous);
            return new Request(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    // ---- packing (mpi-java-api.md section 2.5; the format is in org.portals3j.mpi.internal.Packing) ----

    /** Packs {@code incount} items of {@code inbuf} into {@code outbuf} at {@code position}; the new position. */
    public final int pack(@Nullable Object inbuf, int incount, Datatype type, byte[] outbuf, int position)
            throws MPIException {
        CommState c = state();
        try {
            return Packing.pack(inbuf, items(incount, type), typed(type), outbuf, position);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** Unpacks {@code outcount} items into {@code outbuf} from {@code inbuf} at {@code position}; the new position. */
    public final int unpack(byte[] inbuf, int position, @Nullable Object outbuf, int outcount, Datatype type)
            throws MPIException {
        CommState c = state();
        try {
            return Packing.unpack(inbuf, position, outbuf, items(outcount, type), typed(type));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** The bytes {@code incount} items of {@code type} take packed. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        CommState c = state();
        try {
            return Packing.size(items(incount, type), typed(type));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** The base type of {@code type}; ERR_TYPE for {@code DATATYPE_NULL}. */
    private static BaseType typed(@Nullable Datatype type) {
        BaseType b = base(type);
        if (b == null) {
            throw new MpiError(MPI.ERR_TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        return b;
    }

    static @Nullable BaseType base(@Nullable Datatype type) {
        return type == null ? null : type.base();
    }

    // ---- communicator management (mpi-java-api.md section 2.6) -----------------------------------

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

    // ---- blocking collectives (mpi-java-api.md section 2.8) --------------------------------------
    // The algorithms are in org.portals3j.mpi.internal (Collectives, RootedCollectives, ReductionCollectives), on
    // the communicator's hidden collective context. A single-buffer overload is the in-place form.

    /** A collective on the calling rank's state; its {@code MpiError} goes through the error handler. */
    @FunctionalInterface
    interface Collective {
        void run(CommState c);
    }

    final void collective(Collective call) throws MPIException {
        CommState c = state();
        try {
            call.run(c);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    public final void barrier() throws MPIException {
        collective(Collectives::barrier);
    }

    public final void bcast(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        collective(c -> RootedCollectives.bcast(c, buf, items(count, type), base(type), root));
    }

    public final void gather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        collective(c -> RootedCollectives.gatherv(c, sendbuf, items(sendcount, sendtype), base(sendtype),
                recvbuf, blocks(items(recvcount, recvtype), c), null, base(recvtype), root, RootedForm.FULL));
    }

    /** In place: the root receives into {@code buf} (its own block already there), the others send from it. */
    public final void gather(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        collective(c -> RootedCollectives.gatherv(c, buf, items(count, type), base(type), buf,
                blocks(items(count, type), c), null, base(type), root, RootedForm.IN_PLACE));
    }

    public final void gatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype,
            int root) throws MPIException {
        collective(c -> RootedCollectives.gatherv(c, sendbuf, items(sendcount, sendtype), base(sendtype),
                recvbuf, items(recvcount, recvtype), items(displs, recvtype), base(recvtype), root, RootedForm.FULL));
    }

    /** The root's in-place form. */
    public final void gatherv(@Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        collective(c -> RootedCollectives.gatherv(c, null, 0, null, recvbuf, items(recvcount, recvtype),
                items(displs, recvtype), base(recvtype), root, RootedForm.ROOT_ONLY));
    }

    /** The form of the ranks other than the root. */
    public final void gatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype, int root)
            throws MPIException {
        collective(c -> RootedCollectives.gatherv(c, sendbuf, items(sendcount, sendtype), base(sendtype), null,
                null, null, null, root, RootedForm.NON_ROOT));
    }

    public final void scatter(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        collective(c -> RootedCollectives.scatterv(c, sendbuf, blocks(items(sendcount, sendtype), c), null,
                base(sendtype), recvbuf, items(recvcount, recvtype), base(recvtype), root, RootedForm.FULL));
    }

    /** In place: the root sends from {@code buf} (keeping its own block), the others receive into it. */
    public final void scatter(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        collective(c -> RootedCollectives.scatterv(c, buf, blocks(items(count, type), c), null, base(type), buf,
                items(count, type), base(type), root, RootedForm.IN_PLACE));
    }

    public final void scatterv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        collective(c -> RootedCollectives.scatterv(c, sendbuf, items(sendcount, sendtype),
                items(displs, sendtype), base(sendtype), recvbuf, items(recvcount, recvtype), base(recvtype), root,
                RootedForm.FULL));
    }

    /** The root's in-place form. */
    public final void scatterv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, int root) throws MPIException {
        collective(c -> RootedCollectives.scatterv(c, sendbuf, items(sendcount, sendtype),
                items(displs, sendtype), base(sendtype), null, 0, null, root, RootedForm.ROOT_ONLY));
    }

    /** The form of the ranks other than the root. */
    public final void scatterv(@Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        collective(c -> RootedCollectives.scatterv(c, null, null, null, null, recvbuf, items(recvcount, recvtype),
                base(recvtype), root, RootedForm.NON_ROOT));
    }

    public final void allGather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        collective(c -> Collectives.allGatherv(c, sendbuf, items(sendcount, sendtype), base(sendtype), recvbuf,
                blocks(items(recvcount, recvtype), c), null, base(recvtype), false));
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final void allGather(@Nullable Object buf, int count, @Nullable Datatype type) throws MPIException {
        collective(c -> Collectives.allGatherv(c, null, 0, null, buf, blocks(items(count, type), c), null,
                base(type), true));
    }

    public final void allGatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype)
            throws MPIException {
        collective(c -> Collectives.allGatherv(c, sendbuf, items(sendcount, sendtype), base(sendtype), recvbuf,
                items(recvcount, recvtype), items(displs, recvtype), base(recvtype), false));
    }

    /** In place: each rank's block is already at its place in {@code recvbuf}. */
    public final void allGatherv(@Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype) throws MPIException {
        collective(c -> Collectives.allGatherv(c, null, 0, null, recvbuf, items(recvcount, recvtype),
                items(displs, recvtype), base(recvtype), true));
    }

    public final void allToAll(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        collective(c -> Collectives.allToAllv(c, sendbuf, blocks(items(sendcount, sendtype), c), null,
                base(sendtype), recvbuf, blocks(items(recvcount, recvtype), c), null, base(recvtype)));
    }

    public final void allToAllv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        collective(c -> Collectives.allToAllv(c, sendbuf, items(sendcount, sendtype), items(sdispls, sendtype),
                base(sendtype), recvbuf, items(recvcount, recvtype), items(rdispls, recvtype), base(recvtype)));
    }

    /** {@code recvbuf} is used at the root only (it may be null elsewhere). */
    public final void reduce(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op, int root) throws MPIException {
        collective(c -> ReductionCollectives.reduce(c, sendbuf, recvbuf, items(count, type), base(type),
                Op.reduction(op, type),
                root, false));
    }

    /** In place: {@code buf} is the input everywhere and the output at the root. */
    public final void reduce(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op, int root)
            throws MPIException {
        collective(c -> ReductionCollectives.reduce(c, null, buf, items(count, type), base(type),
                Op.reduction(op, type), root,
                true));
    }

    public final void allReduce(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.allReduce(c, sendbuf, recvbuf, items(count, type), base(type),
                Op.reduction(op, type), false));
    }

    public final void allReduce(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> ReductionCollectives.allReduce(c, null, buf, items(count, type), base(type),
                Op.reduction(op, type),
                true));
    }

    public final void reduceScatter(@Nullable Object sendbuf, @Nullable Object recvbuf, int @Nullable [] recvcounts,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.reduceScatter(c, sendbuf, recvbuf, items(recvcounts, type), 0,
                base(type),
                Op.reduction(op, type), false));
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final void reduceScatter(@Nullable Object buf, int @Nullable [] counts, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.reduceScatter(c, null, buf, items(counts, type), 0, base(type),
                Op.reduction(op, type), true));
    }

    public final void reduceScatterBlock(@Nullable Object sendbuf, @Nullable Object recvbuf, int recvcount,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        collective(c -> ReductionCollectives.reduceScatter(c, sendbuf, recvbuf, null, items(recvcount, type),
                base(type),
                Op.reduction(op, type), false));
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final void reduceScatterBlock(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> ReductionCollectives.reduceScatter(c, null, buf, null, items(count, type),
                base(type),
                Op.reduction(op, type), true));
    }

    /** Applies {@code op} locally: {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]}; errors go to COMM_WORLD's handler. */
    public static void reduceLocal(@Nullable Object inBuf, @Nullable Object inOutBuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        MPI.COMM_WORLD.collective(c -> ReductionCollectives.local(inBuf, inOutBuf, items(count, type), base(type),
                Op.reduction(op, type)));
    }

    /**
     * {@code count} items of {@code type} as elements of its base type (2 per item for a complex type); a negative
     * count stays negative (the callee's ERR_COUNT), a huge one saturates (its ERR_BUFFER).
     */
    static int items(int count, @Nullable Datatype type) {
        int span = type == null ? 1 : type.span();
        return span == 1 ? count : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (long) count * span));
    }

    /** {@link #items(int, Datatype)} of each of {@code counts} (counts or displacements; null stays null). */
    static int @Nullable [] items(int @Nullable [] counts, @Nullable Datatype type) {
        if (counts == null || type == null || type.span() == 1) {
            return counts;
        }
        int[] scaled = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            scaled[i] = items(counts[i], type);
        }
        return scaled;
    }

    /** {@code count} elements for each rank of {@code c}. */
    private static int[] blocks(int count, CommState c) {
        int[] counts = new int[c.size()];
        Arrays.fill(counts, count);
        return counts;
    }
}
