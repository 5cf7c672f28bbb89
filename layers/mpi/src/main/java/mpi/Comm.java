package mpi;

import java.io.UncheckedIOException;
import java.nio.Buffer;
import java.util.Arrays;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.Attributes;
import org.portals3j.mpi.internal.BackgroundDup;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Buffers;
import org.portals3j.mpi.internal.CollectiveSchedule;
import org.portals3j.mpi.internal.CollectiveSteps;
import org.portals3j.mpi.internal.Collectives;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Communicators;
import org.portals3j.mpi.internal.ContextIds;
import org.portals3j.mpi.internal.InterCommunicators;
import org.portals3j.mpi.internal.JobAbort;
import org.portals3j.mpi.internal.Keyvals;
import org.portals3j.mpi.internal.Messages;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.NeighbourCollectives;
import org.portals3j.mpi.internal.Neighbours;
import org.portals3j.mpi.internal.Operation;
import org.portals3j.mpi.internal.Packing;
import org.portals3j.mpi.internal.ProbeResult;
import org.portals3j.mpi.internal.ReceiveOperation;
import org.portals3j.mpi.internal.Reduction;
import org.portals3j.mpi.internal.ReductionCollectives;
import org.portals3j.mpi.internal.RootedCollectives;
import org.portals3j.mpi.internal.RootedForm;
import org.portals3j.mpi.internal.SendOperation;
import org.portals3j.mpi.internal.Staged;
import org.portals3j.mpi.internal.TypeMap;

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

    // ---- identity ---------------------------------------------------------------------------------

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
        CommState a = comm1.state();
        CommState b = comm2.state();
        if (a == b) {
            return MPI.IDENT;
        }
        if (a.isInter() != b.isInter()) {
            return MPI.UNEQUAL;
        }
        int groups = Group.compareRanks(a.jobRanks(), b.jobRanks());
        if (a.isInter()) {
            groups = Math.max(groups, Group.compareRanks(a.localJobRanks(), b.localJobRanks()));
        }
        return groups == MPI.IDENT ? MPI.CONGRUENT : groups;
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
            if (type == null || !type.isStaged()) { // the thread's reused operation: no allocation
                ReceiveOperation op = Messages.blockingReceive(c, buf, items(count, type), base(type), source, tag);
                try {
                    c.engine().await(op);
                    return Request.statusOf(c, op);
                } finally {
                    Messages.finished(op);
                }
            } else {
                Side in = Side.of(buf, count, type, false, true);
                ReceiveOperation op = Messages.receive(c, in.buf, in.elements, in.base, source, tag, in.staged());
                c.engine().await(op);
                return Request.statusOf(c, op);
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
            Side r = Side.of(recvbuf, recvcount, recvtype, false, true);
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            ReceiveOperation in = Messages.receive(c, r.buf, r.elements, r.base, source, recvtag, r.staged());
            SendOperation out = Messages.send(c, s.buf, s.elements, s.base, dest, sendtag, false);
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
            if (type != null && type.isStaged()) {
                Side copy = Side.of(buf, count, type, true, false);
                return sendRecv(copy.buf, copy.elements, Datatype.basic(typed(copy.base)), dest, sendtag, buf, count,
                        type, source, recvtag);
            }
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
            Side in = Side.of(buf, count, type, false, true);
            return new Request(c, Messages.receive(c, in.buf, in.elements, in.base, source, tag, in.staged()));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private void blockingSend(@Nullable Object buf, int count, Datatype type, int dest, int tag, boolean synchronous)
            throws MPIException {
        CommState c = state();
        try {
            if (type == null || !type.isStaged()) { // the thread's reused operation: no allocation
                SendOperation op = Messages.blockingSend(c, buf, items(count, type), base(type), dest, tag,
                        synchronous);
                try {
                    c.engine().await(op);
                    Request.check(c, op);
                } finally {
                    Messages.finished(op);
                }
            } else {
                Side out = Side.of(buf, count, type, true, false);
                SendOperation op = Messages.send(c, out.buf, out.elements, out.base, dest, tag, synchronous);
                c.engine().await(op);
                Request.check(c, op);
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
            Side out = Side.of(buf, count, type, true, false);
            Operation op = Messages.send(c, out.buf, out.elements, out.base, dest, tag, synchronous);
            return new Request(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    // ---- buffered and persistent point-to-point (mpi-java-api.md sections 2.2-2.4, 4.4) ------------

    /**
     * A buffered-mode send: the message is copied into the buffer given to {@code MPI.attachBuffer} and the call
     * returns; {@code ERR_BUFFER} if none is attached or it has no room left (nothing is sent).
     */
    public final void bSend(@Nullable Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        CommState c = state();
        try {
            Messages.bufferedSend(c, MPI.process().bufferedSends(), buf, items(count, type), base(type), dest, tag);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** {@link #bSend}, as a request that is complete at once (the message has been copied). */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        CommState c = state();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            return new Request(c, Messages.bufferedSend(c, MPI.process().bufferedSends(), buf, items(count, type),
                    base(type), dest, tag));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend(buf, count, type, dest, tag, Prequest.Mode.STANDARD);
    }

    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend(buf, count, type, dest, tag, Prequest.Mode.BUFFERED);
    }

    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend(buf, count, type, dest, tag, Prequest.Mode.SYNCHRONOUS);
    }

    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend(buf, count, type, dest, tag, Prequest.Mode.READY);
    }

    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        CommState c = state();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            Messages.checkReceive(c, buf, items(count, type), base(type), source, tag);
            return new Prequest(c, buf, items(count, type), base(type), source, tag, Prequest.Mode.RECEIVE);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    private Prequest persistentSend(Buffer buf, int count, Datatype type, int dest, int tag, Prequest.Mode mode)
            throws MPIException {
        CommState c = state();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            Messages.checkSend(c, buf, items(count, type), base(type), dest, tag);
            return new Prequest(c, buf, items(count, type), base(type), dest, tag, mode);
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
            if (type != null && type.isStaged()) {
                return Packing.pack(inbuf, incount, Datatype.committedMap(type), outbuf, position);
            }
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
            if (type != null && type.isStaged()) {
                return Packing.unpack(inbuf, position, outbuf, outcount, Datatype.committedMap(type));
            }
            return Packing.unpack(inbuf, position, outbuf, items(outcount, type), typed(type));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** The bytes {@code incount} items of {@code type} take packed. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        CommState c = state();
        try {
            if (type != null && type.isStaged()) {
                return Packing.size(incount, Datatype.committedMap(type));
            }
            return Packing.size(items(incount, type), typed(type));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** The base type of {@code type}; ERR_TYPE for {@code DATATYPE_NULL}. */
    private static BaseType typed(@Nullable Datatype type) {
        return typed(base(type));
    }

    private static BaseType typed(@Nullable BaseType b) {
        if (b == null) {
            throw new MpiError(MPI.ERR_TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        return b;
    }

    static @Nullable BaseType base(@Nullable Datatype type) {
        if (type != null && type.base() != null) {
            Datatype.committedMap(type);
        }
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
        collective(c -> {
            Side b = isRoot(c, root) ? Side.of(buf, count, type, true, false) : Side.of(buf, count, type, false, true);
            RootedCollectives.bcast(c, b.buf, b.elements, b.base, root);
            b.done();
        });
    }

    public final void gather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side r = isRoot(c, root) ? Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    /** In place: the root receives into {@code buf} (its own block already there), the others send from it. */
    public final void gather(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        collective(c -> {
            if (!isRoot(c, root)) {
                Side s = Side.of(buf, count, type, true, false);
                RootedCollectives.gatherv(c, s.buf, s.elements, s.base, null, null, null, null, root,
                        RootedForm.IN_PLACE);
                return;
            }
            Side r = Side.blocks(buf, blocks(count, c), null, type, true, true);
            int own = r.counts == null || c.isInter() ? 0 : r.counts[root];
            RootedCollectives.gatherv(c, r.buf, own, r.base, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.IN_PLACE);
            r.done();
        });
    }

    public final void gatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype,
            int root) throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side r = isRoot(c, root) ? Side.blocks(recvbuf, recvcount, displs, recvtype, false, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    /** The root's in-place form. */
    public final void gatherv(@Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        collective(c -> {
            Side r = isRoot(c, root) ? Side.blocks(recvbuf, recvcount, displs, recvtype, true, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(c, null, 0, null, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.ROOT_ONLY);
            r.done();
        });
    }

    /** The form of the ranks other than the root. */
    public final void gatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype, int root)
            throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            RootedCollectives.gatherv(c, s.buf, s.elements, s.base, null, null, null, null, root,
                    RootedForm.NON_ROOT);
        });
    }

    public final void scatter(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        collective(c -> {
            Side s = isRoot(c, root) ? Side.blocks(sendbuf, blocks(sendcount, c), null, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            Side r = Side.of(recvbuf, recvcount, recvtype, false, true);
            RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.elements, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    /** In place: the root sends from {@code buf} (keeping its own block), the others receive into it. */
    public final void scatter(@Nullable Object buf, int count, @Nullable Datatype type, int root) throws MPIException {
        collective(c -> {
            if (isRoot(c, root)) {
                Side s = Side.blocks(buf, blocks(count, c), null, type, true, false);
                RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, s.buf,
                        s.counts == null || c.isInter() ? 0 : s.counts[root], s.base, root, RootedForm.IN_PLACE);
                return;
            }
            Side r = Side.of(buf, count, type, false, true);
            RootedCollectives.scatterv(c, null, null, null, null, r.buf, r.elements, r.base, root,
                    RootedForm.IN_PLACE);
            r.done();
        });
    }

    public final void scatterv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        collective(c -> {
            Side s = isRoot(c, root) ? Side.blocks(sendbuf, sendcount, displs, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            Side r = Side.of(recvbuf, recvcount, recvtype, false, true);
            RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.elements, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    /** The root's in-place form. */
    public final void scatterv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, int root) throws MPIException {
        collective(c -> {
            Side s = isRoot(c, root) ? Side.blocks(sendbuf, sendcount, displs, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, null, 0, null, root,
                    RootedForm.ROOT_ONLY);
        });
    }

    /** The form of the ranks other than the root. */
    public final void scatterv(@Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        collective(c -> {
            Side r = Side.of(recvbuf, recvcount, recvtype, false, true);
            RootedCollectives.scatterv(c, null, null, null, null, r.buf, r.elements, r.base, root,
                    RootedForm.NON_ROOT);
            r.done();
        });
    }

    public final void allGather(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side r = Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true);
            Collectives.allGatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, false);
            r.done();
        });
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final void allGather(@Nullable Object buf, int count, @Nullable Datatype type) throws MPIException {
        collective(c -> {
            Side r = Side.blocks(buf, blocks(count, c), null, type, true, true);
            Collectives.allGatherv(c, null, 0, null, r.buf, r.counts, r.displs, r.base, true);
            r.done();
        });
    }

    public final void allGatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype)
            throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side r = Side.blocks(recvbuf, recvcount, displs, recvtype, false, true);
            Collectives.allGatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, false);
            r.done();
        });
    }

    /** In place: each rank's block is already at its place in {@code recvbuf}. */
    public final void allGatherv(@Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype) throws MPIException {
        collective(c -> {
            Side r = Side.blocks(recvbuf, recvcount, displs, recvtype, true, true);
            Collectives.allGatherv(c, null, 0, null, r.buf, r.counts, r.displs, r.base, true);
            r.done();
        });
    }

    public final void allToAll(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        collective(c -> {
            Side s = Side.blocks(sendbuf, blocks(sendcount, c), null, sendtype, true, false);
            Side r = Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true);
            Collectives.allToAllv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.counts, r.displs, r.base);
            r.done();
        });
    }

    public final void allToAllv(@Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        collective(c -> {
            Side s = Side.blocks(sendbuf, sendcount, sdispls, sendtype, true, false);
            Side r = Side.blocks(recvbuf, recvcount, rdispls, recvtype, false, true);
            Collectives.allToAllv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.counts, r.displs, r.base);
            r.done();
        });
    }

    /** {@code recvbuf} is used at the root only (it may be null elsewhere). */
    public final void reduce(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op, int root) throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, count, type, true, false);
            Side r = isRoot(c, root) ? Side.of(recvbuf, count, type, false, true) : Side.of(recvbuf, 0, null,
                    false, false);
            ReductionCollectives.reduce(c, s.buf, r.buf, s.elements, s.base, reduction(op, type), root, false);
            r.done();
        });
    }

    /** In place: {@code buf} is the input everywhere and the output at the root. */
    public final void reduce(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op, int root)
            throws MPIException {
        collective(c -> {
            Side b = Side.of(buf, count, type, true, isRoot(c, root));
            ReductionCollectives.reduce(c, null, b.buf, b.elements, b.base, reduction(op, type), root, true);
            b.done();
        });
    }

    public final void allReduce(@Nullable Object sendbuf, @Nullable Object recvbuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        collective(c -> {
            Side s = Side.of(sendbuf, count, type, true, false);
            Side r = Side.of(recvbuf, count, type, false, true);
            ReductionCollectives.allReduce(c, s.buf, r.buf, s.elements, s.base, reduction(op, type), false);
            r.done();
        });
    }

    public final void allReduce(@Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        collective(c -> {
            Side b = Side.of(buf, count, type, true, true);
            ReductionCollectives.allReduce(c, null, b.buf, b.elements, b.base, reduction(op, type), true);
            b.done();
        });
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

    // ---- nonblocking collectives (mpi-java-api.md section 2.9) ------------------------------------
    // One copy of each algorithm: the blocking collectives' code lays its steps down in a CollectiveSchedule, which
    // the rank's progress advances (org.portals3j.mpi.internal.CollectiveSchedule). The buffers belong to the
    // operation from the call until the request completes (section 4.7); Java arrays' heap buffers are accepted
    // unless portals3j.mpi.strictBuffers is set. iAllToAllw is with allToAllw (derived datatypes, below).

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
        boolean strict = c.engine().config().strictBuffers();
        for (Buffer b : buffers) {
            if (b != null) {
                Buffers.checkNonblocking(b, strict);
            }
        }
        try {
            return new Request(c, CollectiveSchedule.start(c, s -> plan.record(s, c)));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    public final Request iBarrier() throws MPIException {
        return startCollective((s, c) -> Collectives.barrier(s));
    }

    public final Request iBcast(@Nullable Buffer buf, int count, @Nullable Datatype type, int root)
            throws MPIException {
        return startCollective((s, c) -> RootedCollectives.bcast(s, buf, items(count, type), base(type), root), buf);
    }

    public final Request iGather(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        return startCollective((s, c) -> RootedCollectives.gatherv(s, sendbuf, items(sendcount, sendtype),
                base(sendtype), recvbuf, blocks(items(recvcount, recvtype), c), null, base(recvtype), root,
                RootedForm.FULL), sendbuf, recvbuf);
    }

    /** In place: the root receives into {@code buf} (its own block already there), the others send from it. */
    public final Request iGather(@Nullable Buffer buf, int count, @Nullable Datatype type, int root)
            throws MPIException {
        return startCollective((s, c) -> RootedCollectives.gatherv(s, buf, items(count, type), base(type), buf,
                blocks(items(count, type), c), null, base(type), root, RootedForm.IN_PLACE), buf);
    }

    public final Request iGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype,
            int root) throws MPIException {
        return startCollective((s, c) -> RootedCollectives.gatherv(s, sendbuf, items(sendcount, sendtype),
                base(sendtype), recvbuf, items(recvcount, recvtype), items(displs, recvtype), base(recvtype), root,
                RootedForm.FULL), sendbuf, recvbuf);
    }

    /** The root's in-place form. */
    public final Request iGatherv(@Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        return startCollective((s, c) -> RootedCollectives.gatherv(s, null, 0, null, recvbuf,
                items(recvcount, recvtype), items(displs, recvtype), base(recvtype), root, RootedForm.ROOT_ONLY),
                recvbuf);
    }

    /** The form of the ranks other than the root. */
    public final Request iGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype, int root)
            throws MPIException {
        return startCollective((s, c) -> RootedCollectives.gatherv(s, sendbuf, items(sendcount, sendtype),
                base(sendtype), null, null, null, null, root, RootedForm.NON_ROOT), sendbuf);
    }

    public final Request iScatter(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        return startCollective((s, c) -> RootedCollectives.scatterv(s, sendbuf, blocks(items(sendcount, sendtype), c),
                null, base(sendtype), recvbuf, items(recvcount, recvtype), base(recvtype), root, RootedForm.FULL),
                sendbuf, recvbuf);
    }

    /** In place: the root sends from {@code buf} (keeping its own block), the others receive into it. */
    public final Request iScatter(@Nullable Buffer buf, int count, @Nullable Datatype type, int root)
            throws MPIException {
        return startCollective((s, c) -> RootedCollectives.scatterv(s, buf, blocks(items(count, type), c), null,
                base(type), buf, items(count, type), base(type), root, RootedForm.IN_PLACE), buf);
    }

    public final Request iScatterv(@Nullable Buffer sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype,
            int root) throws MPIException {
        return startCollective((s, c) -> RootedCollectives.scatterv(s, sendbuf, items(sendcount, sendtype),
                items(displs, sendtype), base(sendtype), recvbuf, items(recvcount, recvtype), base(recvtype), root,
                RootedForm.FULL), sendbuf, recvbuf);
    }

    /** The root's in-place form. */
    public final Request iScatterv(@Nullable Buffer sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, int root) throws MPIException {
        return startCollective((s, c) -> RootedCollectives.scatterv(s, sendbuf, items(sendcount, sendtype),
                items(displs, sendtype), base(sendtype), null, 0, null, root, RootedForm.ROOT_ONLY), sendbuf);
    }

    /** The form of the ranks other than the root. */
    public final Request iScatterv(@Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root)
            throws MPIException {
        return startCollective((s, c) -> RootedCollectives.scatterv(s, null, null, null, null, recvbuf,
                items(recvcount, recvtype), base(recvtype), root, RootedForm.NON_ROOT), recvbuf);
    }

    public final Request iAllGather(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return startCollective((s, c) -> Collectives.allGatherv(s, sendbuf, items(sendcount, sendtype),
                base(sendtype), recvbuf, blocks(items(recvcount, recvtype), c), null, base(recvtype), false),
                sendbuf, recvbuf);
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final Request iAllGather(@Nullable Buffer buf, int count, @Nullable Datatype type) throws MPIException {
        return startCollective((s, c) -> Collectives.allGatherv(s, null, 0, null, buf, blocks(items(count, type), c),
                null, base(type), true), buf);
    }

    public final Request iAllGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs, @Nullable Datatype recvtype)
            throws MPIException {
        return startCollective((s, c) -> Collectives.allGatherv(s, sendbuf, items(sendcount, sendtype),
                base(sendtype), recvbuf, items(recvcount, recvtype), items(displs, recvtype), base(recvtype), false),
                sendbuf, recvbuf);
    }

    /** In place: each rank's block is already at its place in {@code buf}. */
    public final Request iAllGatherv(@Nullable Buffer buf, int @Nullable [] count, int @Nullable [] displs,
            @Nullable Datatype type) throws MPIException {
        return startCollective((s, c) -> Collectives.allGatherv(s, null, 0, null, buf, items(count, type),
                items(displs, type), base(type), true), buf);
    }

    public final Request iAllToAll(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return startCollective((s, c) -> Collectives.allToAllv(s, sendbuf, blocks(items(sendcount, sendtype), c),
                null, base(sendtype), recvbuf, blocks(items(recvcount, recvtype), c), null, base(recvtype)),
                sendbuf, recvbuf);
    }

    public final Request iAllToAllv(@Nullable Buffer sendbuf, int @Nullable [] sendcount, int @Nullable [] sdispls,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int @Nullable [] recvcount,
            int @Nullable [] rdispls, @Nullable Datatype recvtype) throws MPIException {
        return startCollective((s, c) -> Collectives.allToAllv(s, sendbuf, items(sendcount, sendtype),
                items(sdispls, sendtype), base(sendtype), recvbuf, items(recvcount, recvtype),
                items(rdispls, recvtype), base(recvtype)), sendbuf, recvbuf);
    }

    /** {@code recvbuf} is used at the root only (it may be null elsewhere). */
    public final Request iReduce(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op, int root) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.reduce(s, sendbuf, recvbuf, items(count, type),
                base(type), Op.reduction(op, type), root, false), sendbuf, recvbuf);
    }

    /** In place: {@code buf} is the input everywhere and the output at the root. */
    public final Request iReduce(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op,
            int root) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.reduce(s, null, buf, items(count, type), base(type),
                Op.reduction(op, type), root, true), buf);
    }

    public final Request iAllReduce(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.allReduce(s, sendbuf, recvbuf, items(count, type),
                base(type), Op.reduction(op, type), false), sendbuf, recvbuf);
    }

    /** In place. */
    public final Request iAllReduce(@Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op)
            throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.allReduce(s, null, buf, items(count, type),
                base(type), Op.reduction(op, type), true), buf);
    }

    public final Request iReduceScatter(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf,
            int @Nullable [] recvcounts, @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.reduceScatter(s, sendbuf, recvbuf,
                items(recvcounts, type), 0, base(type), Op.reduction(op, type), false), sendbuf, recvbuf);
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final Request iReduceScatter(@Nullable Buffer buf, int @Nullable [] counts, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.reduceScatter(s, null, buf, items(counts, type), 0,
                base(type), Op.reduction(op, type), true), buf);
    }

    public final Request iReduceScatterBlock(@Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int recvcount,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.reduceScatter(s, sendbuf, recvbuf, null,
                items(recvcount, type), base(type), Op.reduction(op, type), false), sendbuf, recvbuf);
    }

    /** In place: {@code buf} holds the whole input, and this rank's block of the result at its start. */
    public final Request iReduceScatterBlock(@Nullable Buffer buf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return startCollective((s, c) -> ReductionCollectives.reduceScatter(s, null, buf, null, items(count, type),
                base(type), Op.reduction(op, type), true), buf);
    }

    /** Applies {@code op} locally: {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]}; errors go to COMM_WORLD's handler. */
    public static void reduceLocal(@Nullable Object inBuf, @Nullable Object inOutBuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        MPI.COMM_WORLD.collective(c -> ReductionCollectives.local(inBuf, inOutBuf, items(count, type), base(type),
                Op.reduction(op, type)));
    }

    // ---- communicator extras (mpi-java-api.md sections 2.1, 2.6, 2.7; tier 2 item 6) ---------------------------

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
        CommState c = state();
        return new Comm(c, BackgroundDup.start(c, MPI.process().contexts(), s -> s));
    }

    /** {@link #dup()}, with {@code info}'s hints on the new communicator instead of this one's. */
    public Comm dupWithInfo(Info info) throws MPIException {
        Map<String, String> hints = hintsOf(info);
        return new Comm(withHints(derive(Communicators::dup), hints));
    }

    static @Nullable CommState withHints(@Nullable CommState c, Map<String, String> hints) {
        if (c != null) {
            c.setHints(hints);
        }
        return c;
    }

    /** The hints of {@code info} ({@code INFO_NULL}: none); a freed info is ERR_INFO. */
    static Map<String, String> hintsOf(Info info) throws MPIException {
        return info == MPI.INFO_NULL ? Map.of() : info.entries();
    }

    /**
     * Sets the info hints of this communicator (they replace those it had). The layer acts on none of them (MPI 4.1
     * section 7.4.4 lets it ignore any), but keeps them all for {@link #getInfo()}. {@code INFO_NULL} or a freed
     * info is ERR_INFO.
     */
    public final void setInfo(Info info) throws MPIException {
        CommState c = state();
        if (info == MPI.INFO_NULL || info.isNull()) {
            throw MPI.raise(c, MPI.ERR_INFO, "setInfo needs an info object, not INFO_NULL or a freed one");
        }
        c.setHints(info.entries());
    }

    /** A new info object with the hints of this communicator. */
    public final Info getInfo() throws MPIException {
        return Info.of(state().hints());
    }

    /** A new attribute keyval for communicators: {@code dup} copies its values, {@code free} drops them. */
    public static int createKeyval() throws MPIException {
        CommState world = MPI.process().world();
        try {
            return MPI.process().keyvals().create(Keyvals.Kind.COMMUNICATOR);
        } catch (MpiError e) {
            throw MPI.raise(world, e);
        }
    }

    /** Frees {@code keyval}; values already set stay until deleted or their communicator is freed. */
    public static void freeKeyval(int keyval) throws MPIException {
        CommState world = MPI.process().world();
        try {
            MPI.process().keyvals().free(keyval, Keyvals.Kind.COMMUNICATOR);
        } catch (MpiError e) {
            throw MPI.raise(world, e);
        }
    }

    /**
     * Caches {@code value} (serialised: it must be {@code Serializable}, else {@code MPIException} whatever the
     * error handler, as in Open MPI) under {@code keyval}. A predefined, freed or datatype keyval is ERR_KEYVAL.
     */
    public final void setAttr(int keyval, @Nullable Object value) throws MPIException {
        CommState c = checkedKeyval(keyval);
        try {
            c.attributes().set(keyval, Attributes.serialize(value));
        } catch (UncheckedIOException e) {
            throw new MPIException(e.getCause());
        }
    }

    /**
     * A copy of the value cached under {@code keyval}, or null if none is; a predefined key gives its
     * {@code Integer} ({@code WTIME_IS_GLOBAL} a {@code Boolean}) on {@code COMM_WORLD} and its dups, null on
     * other communicators.
     */
    public final @Nullable Object getAttr(int keyval) throws MPIException {
        CommState c = state();
        try {
            if (keyval >= 0 && keyval < Keyvals.PREDEFINED_COUNT) {
                Object value = Keyvals.predefinedValue(keyval, MPI.process().engine().size());
                return c.hasPredefinedAttributes() ? value : null;
            }
            MPI.process().keyvals().check(keyval, Keyvals.Kind.COMMUNICATOR);
            byte[] bytes = c.attributes().get(keyval);
            return bytes == null ? null : Attributes.deserialize(bytes);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        } catch (UncheckedIOException e) {
            throw new MPIException(e.getCause());
        }
    }

    /** Deletes the value cached under {@code keyval} (nothing happens if none is). */
    public final void deleteAttr(int keyval) throws MPIException {
        checkedKeyval(keyval).attributes().delete(keyval);
    }

    private CommState checkedKeyval(int keyval) throws MPIException {
        CommState c = state();
        try {
            MPI.process().keyvals().check(keyval, Keyvals.Kind.COMMUNICATOR);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
        return c;
    }

    /**
     * {@code count} items of {@code type} as elements of its base type (2 per item for a complex type); a negative
     * count stays negative (the callee's ERR_COUNT), a huge one saturates (its ERR_BUFFER).
     */
    static int items(int count, @Nullable Datatype type) {
        if (type != null && type.isStaged()) {
            throw new MpiError(MPI.ERR_TYPE, "this call does not take a non-contiguous derived datatype: pack the"
                    + " data (Comm.pack) or use a contiguous type");
        }
        int span = type == null ? 1 : type.span();
        return span == 1 ? count : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (long) count * span));
    }

    /** {@link #items(int, Datatype)} of each of {@code counts} (counts or displacements; null stays null). */
    static int @Nullable [] items(int @Nullable [] counts, @Nullable Datatype type) {
        if (counts == null || type == null || type.span() == 1) {
            items(0, type);
            return counts;
        }
        int[] scaled = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            scaled[i] = items(counts[i], type);
        }
        return scaled;
    }

    // ---- topologies (mpi-java-api.md sections 2.10, 2.11 and 2.13; the grids are in internal.CartTopology) ----

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
        neighbourhood((c, n) -> NeighbourCollectives.exchange(c, n, sendbuf, items(sendcount, sendtype), null, null,
                base(sendtype), recvbuf, blocks(items(recvcount, recvtype), n.sources().length), null,
                base(recvtype)));
    }

    /** {@link #neighborAllGather} with a count and a displacement per in-neighbour. */
    public final void neighborAllGatherv(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int[] recvcount, int[] displs, @Nullable Datatype recvtype)
            throws MPIException {
        neighbourhood((c, n) -> NeighbourCollectives.exchange(c, n, sendbuf, items(sendcount, sendtype), null, null,
                base(sendtype), recvbuf, present(items(recvcount, recvtype)), items(displs, recvtype),
                base(recvtype)));
    }

    /** Sends block {@code i} to out-neighbour {@code i}; receives block {@code i} from in-neighbour {@code i}. */
    public final void neighborAllToAll(@Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        neighbourhood((c, n) -> NeighbourCollectives.exchange(c, n, sendbuf, 0,
                blocks(items(sendcount, sendtype), n.destinations().length), null, base(sendtype), recvbuf,
                blocks(items(recvcount, recvtype), n.sources().length), null, base(recvtype)));
    }

    /** {@link #neighborAllToAll} with a count and a displacement per neighbour. */
    public final void neighborAllToAllv(@Nullable Object sendbuf, int[] sendcount, int[] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int[] recvcount, int[] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        neighbourhood((c, n) -> NeighbourCollectives.exchange(c, n, sendbuf, 0,
                present(items(sendcount, sendtype)), items(sdispls, sendtype), base(sendtype), recvbuf,
                present(items(recvcount, recvtype)), items(rdispls, recvtype), base(recvtype)));
    }

    /** A neighbourhood collective on this rank's neighbours; ERR_TOPOLOGY without a Cartesian or graph topology. */
    @FunctionalInterface
    interface NeighbourCall {
        void run(CommState c, Neighbours n);
    }

    private void neighbourhood(NeighbourCall call) throws MPIException {
        CommState c = state();
        try {
            call.run(c, topology(c));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** This rank's neighbourhood; ERR_TOPOLOGY without a Cartesian or graph topology. */
    private Neighbours topology(CommState c) {
        Neighbours n = neighbours(c.rank());
        if (n == null) {
            throw new MpiError(MPI.ERR_TOPOLOGY, "a neighbourhood collective needs a communicator with a"
                    + " Cartesian or graph topology (createCart, createGraph, createDistGraph): " + c.name()
                    + " has none");
        }
        return n;
    }

    // ---- nonblocking neighbourhood collectives (mpi-java-api.md section 2.10) ---------------------------------
    // The blocking forms' algorithm (internal.NeighbourCollectives) laid down in a nonblocking-collective schedule.

    /** Lays a neighbourhood collective's steps down for this rank's neighbourhood {@code n}. */
    @FunctionalInterface
    interface NeighbourSchedule {
        void record(CollectiveSteps steps, Neighbours n);
    }

    private Request startNeighbourhood(NeighbourSchedule plan, @Nullable Buffer sendbuf, @Nullable Buffer recvbuf)
            throws MPIException {
        return startCollective((s, c) -> plan.record(s, topology(c)), sendbuf, recvbuf);
    }

    /** {@link #neighborAllGather} as a nonblocking collective. */
    public final Request iNeighborAllGather(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return startNeighbourhood((s, n) -> NeighbourCollectives.schedule(s, n, sendbuf, items(sendcount, sendtype),
                null, null, base(sendtype), recvbuf, blocks(items(recvcount, recvtype), n.sources().length), null,
                base(recvtype)), sendbuf, recvbuf);
    }

    /** {@link #neighborAllGatherv} as a nonblocking collective. */
    public final Request iNeighborAllGatherv(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int[] recvcount, int[] displs, @Nullable Datatype recvtype)
            throws MPIException {
        return startNeighbourhood((s, n) -> NeighbourCollectives.schedule(s, n, sendbuf, items(sendcount, sendtype),
                null, null, base(sendtype), recvbuf, present(items(recvcount, recvtype)), items(displs, recvtype),
                base(recvtype)), sendbuf, recvbuf);
    }

    /** {@link #neighborAllToAll} as a nonblocking collective. */
    public final Request iNeighborAllToAll(@Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return startNeighbourhood((s, n) -> NeighbourCollectives.schedule(s, n, sendbuf, 0,
                blocks(items(sendcount, sendtype), n.destinations().length), null, base(sendtype), recvbuf,
                blocks(items(recvcount, recvtype), n.sources().length), null, base(recvtype)), sendbuf, recvbuf);
    }

    /** {@link #neighborAllToAllv} as a nonblocking collective. */
    public final Request iNeighborAllToAllv(@Nullable Buffer sendbuf, int[] sendcount, int[] sdispls,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int[] recvcount, int[] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        return startNeighbourhood((s, n) -> NeighbourCollectives.schedule(s, n, sendbuf, 0,
                present(items(sendcount, sendtype)), items(sdispls, sendtype), base(sendtype), recvbuf,
                present(items(recvcount, recvtype)), items(rdispls, recvtype), base(recvtype)), sendbuf, recvbuf);
    }

    /** {@code counts} (a null array there is ERR_ARG). */
    private static int[] present(int @Nullable [] counts) {
        if (counts == null) {
            throw new MpiError(MPI.ERR_ARG, "the count array must have one entry per neighbour");
        }
        return counts;
    }

    /** {@code n} copies of {@code count}. */
    /**
     * Whether this rank is the root of a rooted collective: its rank on an intracommunicator; on an
     * intercommunicator the process of the root's group that passes {@code MPI.ROOT} (MPI 4.1 section 6.2.2).
     */
    private static boolean isRoot(CommState c, int root) {
        return c.isInter() ? root == MPI.ROOT : c.rank() == root;
    }

    private static int[] blocks(int count, int n) {
        int[] counts = new int[n];
        Arrays.fill(counts, count);
        return counts;
    }

    // ---- intercommunicators (mpi-java-api.md sections 2.6 and 2.13; internal.InterCommunicators) ----

    /**
     * {@code MPI_INTERCOMM_CREATE}, called on the peer communicator by every process of two disjoint groups: an
     * intercommunicator between {@code localComm} (an intracommunicator, else {@code ERR_COMM}) and the group whose
     * leader is rank {@code remoteLeader} of this communicator; the leaders ({@code localLeader} in
     * {@code localComm}) swap their groups on this communicator with {@code tag}. Collective over both groups.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        CommState peer = state();
        CommState local = localComm.state();
        try {
            return new Intercomm(InterCommunicators.create(peer, local, MPI.process().contexts(), localLeader,
                    remoteLeader, tag));
        } catch (MpiError e) {
            throw MPI.raise(local, e);
        }
    }

    /** {@code count} elements for each rank of {@code c}. */
    private static int[] blocks(int count, CommState c) {
        int[] counts = new int[c.size()];
        Arrays.fill(counts, count);
        return counts;
    }

    // ---- derived datatypes in collectives (mpi-java-api.md section 3 tier 2 item 2; staging is in Side) ------

    /**
     * Every rank sends {@code sendCount[j]} items of {@code sendTypes[j]} from byte {@code sDispls[j]} of
     * {@code sendBuf} to rank {@code j}, and receives {@code recvCount[i]} items of {@code recvTypes[i]} from rank
     * {@code i} at byte {@code rDispls[i]} of {@code recvBuf}. The types of one buffer must share its base type
     * (ERR_TYPE otherwise: a Java buffer has one element type); a type with a count of 0 is not looked at.
     */
    public final void allToAllw(@Nullable Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            @Nullable Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        collective(c -> {
            Staged s = stagedSend(c, sendBuf, sendCount, sDispls, sendTypes, recvCount);
            Staged r = Staged.typed(recvBuf, recvCount, rDispls, maps(recvTypes, recvCount), false, true);
            Collectives.allToAllv(c, s.array(), s.counts(), s.displs(), s.wireBase(), r.array(), r.counts(),
                    r.displs(), r.wireBase());
            r.scatter();
        });
    }

    /**
     * {@link #allToAllw} as a nonblocking collective (the schedule of {@code iAllToAllv} on packed copies): the send
     * blocks are packed by the call, the received ones unpacked into {@code recvBuf} by the schedule's last step.
     */
    public final Request iAllToAllw(@Nullable Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            @Nullable Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        return startCollective((steps, c) -> {
            Staged s = stagedSend(c, sendBuf, sendCount, sDispls, sendTypes, recvCount);
            Staged r = Staged.typed(recvBuf, recvCount, rDispls, maps(recvTypes, recvCount), false, true);
            Collectives.allToAllv(steps, s.array(), s.counts(), s.displs(), s.wireBase(), r.array(), r.counts(),
                    r.displs(), r.wireBase());
            steps.local(r::scatter);
        }, sendBuf, recvBuf);
    }

    /** The packed send blocks of an {@code allToAllw}, once both count arrays have an entry for every rank. */
    private static Staged stagedSend(CommState c, @Nullable Object sendBuf, int[] sendCount, int[] sDispls,
            Datatype[] sendTypes, int[] recvCount) {
        if (sendCount.length < c.size() || recvCount.length < c.size()) {
            throw new MpiError(MPI.ERR_ARG, "allToAllw needs a count, displacement and type for each of the "
                    + c.size() + " ranks");
        }
        return Staged.typed(sendBuf, sendCount, sDispls, maps(sendTypes, sendCount), true, false);
    }

    /** The type maps of {@code types}; an entry with a count of 0 may be any type (or null). */
    private static TypeMap[] maps(Datatype[] types, int[] counts) {
        if (types.length != counts.length) {
            throw new MpiError(MPI.ERR_ARG, "allToAllw needs as many types as counts, not " + types.length
                    + " and " + counts.length);
        }
        TypeMap[] maps = new TypeMap[types.length];
        TypeMap any = null;
        for (int i = 0; i < types.length; i++) {
            if (counts[i] != 0) {
                maps[i] = Datatype.committedMap(types[i]);
                any = any == null ? maps[i] : any;
            }
        }
        for (int i = 0; i < types.length; i++) {
            if (maps[i] == null) {
                maps[i] = any != null ? any : Datatype.committedMap(MPI.BYTE);
            }
        }
        return maps;
    }

    /**
     * The reduction of {@code op} on items of {@code type}. A non-contiguous derived type is reduced as its packed
     * base elements, which is right for the predefined operations on a type built of plain basic types only; a
     * user-defined operation (which Open MPI calls on the type's extent, gaps included) or a type with pair,
     * complex or struct parts is ERR_OP.
     */
    static Reduction reduction(@Nullable Op op, @Nullable Datatype type) {
        if (type == null || !type.isStaged()) {
            return Op.reduction(op, type);
        }
        if (op == null || !op.isPredefined()) {
            throw new MpiError(MPI.ERR_OP, op == null ? "invalid operation: null" : "a user-defined operation"
                    + " takes contiguous datatypes only: reduce a contiguous copy of the data");
        }
        BaseType b = typed(type);
        if (!type.isReducible()) {
            throw new MpiError(MPI.ERR_OP, "the predefined operations do not apply to a derived type made of"
                    + " struct, pair or complex types: use a user-defined Op on a contiguous copy");
        }
        return Op.reduction(op, Datatype.basic(b));
    }
}
