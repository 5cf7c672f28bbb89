package mpi;

import static mpi.CommArgs.items;
import static mpi.CommArgs.base;
import static mpi.CommArgs.typed;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Buffers;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Messages;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Operation;
import org.portals3j.mpi.internal.Packing;
import org.portals3j.mpi.internal.ProbeResult;
import org.portals3j.mpi.internal.ReceiveOperation;
import org.portals3j.mpi.internal.SendOperation;

/**
 * The point-to-point calls of {@link Comm} (blocking, nonblocking, buffered, persistent, probes and packing)
 * on the calling rank's state: argument staging, the engine's operations, errors through the communicator's handler.
 */
final class CommPointToPoint {
    private CommPointToPoint() {
    }

    static void send(CommState c, @Nullable Object buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        blockingSend(c, buf, count, type, dest, tag, false);
    }

    static void sSend(CommState c, @Nullable Object buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        blockingSend(c, buf, count, type, dest, tag, true);
    }

    static void rSend(CommState c, @Nullable Object buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        blockingSend(c, buf, count, type, dest, tag, false);
    }

    static Status recv(CommState c, @Nullable Object buf, int count, Datatype type, int source,
            int tag) throws MPIException {
        try {
            if (type == null || !type.isStaged()) { // the thread's reused operation: no allocation
                ReceiveOperation op = Messages.blockingReceive(c, buf, items(count, type), base(type), source, tag);
                try {
                    c.engine().receive(op);
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

    static Status sendRecv(CommState c, @Nullable Object sendbuf, int sendcount, Datatype sendtype, int dest,
            int sendtag, @Nullable Object recvbuf, int recvcount, Datatype recvtype, int source,
            int recvtag) throws MPIException {
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

    static Status sendRecvReplace(CommState c, @Nullable Object buf, int count, Datatype type, int dest, int sendtag,
            int source, int recvtag) throws MPIException {
        try {
            BaseType t = base(type);
            if (type != null && type.isStaged()) {
                Side copy = Side.of(buf, count, type, true, false);
                return sendRecv(c, copy.buf, copy.elements, Datatype.basic(typed(copy.base)), dest, sendtag, buf, count,
                        type, source, recvtag);
            }
            Object staged = t == null ? buf : Buffers.copyOf(buf, items(count, type), t);
            return sendRecv(c, staged, count, type, dest, sendtag, buf, count, type, source, recvtag);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static Status probe(CommState c, int source, int tag) throws MPIException {
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

    static @Nullable Status iProbe(CommState c, int source, int tag) throws MPIException {
        try {
            ProbeResult r = Messages.probe(c, source, tag);
            return r == null ? null : new Status(r.source(), r.tag(), MPI.SUCCESS, r.bytes(), false);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static Request iSend(CommState c, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend(c, buf, count, type, dest, tag, false);
    }

    static Request isSend(CommState c, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend(c, buf, count, type, dest, tag, true);
    }

    static Request irSend(CommState c, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend(c, buf, count, type, dest, tag, false);
    }

    static Request iRecv(CommState c, Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            if (type == null || !type.isStaged()) { // an operation the thread kept: see Request.waitFor
                return new Request(c, Messages.nonblockingReceive(c, buf, items(count, type), base(type), source,
                        tag));
            }
            Side in = Side.of(buf, count, type, false, true);
            return new Request(c, Messages.receive(c, in.buf, in.elements, in.base, source, tag, in.staged()));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static void blockingSend(CommState c, @Nullable Object buf, int count, Datatype type, int dest, int tag,
            boolean synchronous) throws MPIException {
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

    static Request nonblockingSend(CommState c, Buffer buf, int count, Datatype type, int dest, int tag,
            boolean synchronous) throws MPIException {
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            if (type == null || !type.isStaged()) { // an operation the thread kept: see Request.waitFor
                return new Request(c, Messages.nonblockingSend(c, buf, items(count, type), base(type), dest, tag,
                        synchronous));
            }
            Side out = Side.of(buf, count, type, true, false);
            Operation op = Messages.send(c, out.buf, out.elements, out.base, dest, tag, synchronous);
            return new Request(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static void bSend(CommState c, @Nullable Object buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        try {
            Messages.bufferedSend(c, MPI.process().bufferedSends(), buf, items(count, type), base(type), dest, tag);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static Request ibSend(CommState c, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            return new Request(c, Messages.bufferedSend(c, MPI.process().bufferedSends(), buf, items(count, type),
                    base(type), dest, tag));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static Prequest sendInit(CommState c, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend(c, buf, count, type, dest, tag, Prequest.Mode.STANDARD);
    }

    static Prequest bSendInit(CommState c, Buffer buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        return persistentSend(c, buf, count, type, dest, tag, Prequest.Mode.BUFFERED);
    }

    static Prequest sSendInit(CommState c, Buffer buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        return persistentSend(c, buf, count, type, dest, tag, Prequest.Mode.SYNCHRONOUS);
    }

    static Prequest rSendInit(CommState c, Buffer buf, int count, Datatype type, int dest,
            int tag) throws MPIException {
        return persistentSend(c, buf, count, type, dest, tag, Prequest.Mode.READY);
    }

    static Prequest recvInit(CommState c, Buffer buf, int count, Datatype type, int source,
            int tag) throws MPIException {
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            Messages.checkReceive(c, buf, items(count, type), base(type), source, tag);
            return new Prequest(c, buf, items(count, type), base(type), source, tag, Prequest.Mode.RECEIVE);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static Prequest persistentSend(CommState c, Buffer buf, int count, Datatype type, int dest, int tag,
            Prequest.Mode mode) throws MPIException {
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            Messages.checkSend(c, buf, items(count, type), base(type), dest, tag);
            return new Prequest(c, buf, items(count, type), base(type), dest, tag, mode);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static int pack(CommState c, @Nullable Object inbuf, int incount, Datatype type, byte[] outbuf,
            int position) throws MPIException {
        try {
            if (type != null && type.isStaged()) {
                return Packing.pack(inbuf, incount, Datatype.committedMap(type), outbuf, position);
            }
            return Packing.pack(inbuf, items(incount, type), typed(type), outbuf, position);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static int unpack(CommState c, byte[] inbuf, int position, @Nullable Object outbuf, int outcount,
            Datatype type) throws MPIException {
        try {
            if (type != null && type.isStaged()) {
                return Packing.unpack(inbuf, position, outbuf, outcount, Datatype.committedMap(type));
            }
            return Packing.unpack(inbuf, position, outbuf, items(outcount, type), typed(type));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static int packSize(CommState c, int incount, Datatype type) throws MPIException {
        try {
            if (type != null && type.isStaged()) {
                return Packing.size(incount, Datatype.committedMap(type));
            }
            return Packing.size(items(incount, type), typed(type));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }
}
