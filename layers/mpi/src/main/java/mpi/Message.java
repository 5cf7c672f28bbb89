package mpi;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.Buffers;
import org.portals3j.mpi.internal.ClaimedMessage;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.MatchedProbe;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.ReceiveOperation;

/**
 * A matched-probe handle ({@code MPI_Message}; mpi-java-api.md section 2.15, MPI 4.1 section 3.8.2). A new one is
 * null ({@code MPI_MESSAGE_NULL}). {@link #mProbe} or a successful {@link #imProbe} ties it to one message, which
 * from then on no receive or probe of any thread can take; {@link #mRecv} or {@link #imRecv} receives exactly that
 * message and makes the handle null again. A probe of {@code PROC_NULL} gives the no-process message
 * ({@link #isNoProc()}), whose receive completes at once with source {@code PROC_NULL}, tag {@code ANY_TAG} and
 * count 0.
 *
 * <p>Errors: the probes' through the communicator's error handler (as {@code Comm.probe}); the receives' through
 * the handler of the communicator the message was probed on. Receiving with a null handle (never probed, or
 * received already) is {@code ERR_REQUEST} through {@code COMM_WORLD}'s handler, as Open MPI does; probing with a
 * handle that still holds an unreceived message is {@code ERR_REQUEST} too (the message would be lost). A receive
 * with a bad argument leaves the message tied to the handle, so that a corrected call still gets it.
 */
public final class Message {
    private @Nullable ClaimedMessage claimed;
    private boolean noProc;
    private @Nullable CommState comm;

    /** A null message ({@code MPI_MESSAGE_NULL}). */
    public Message() {
    }

    /** Whether this is {@code MPI_MESSAGE_NULL}: never probed, or received. */
    public boolean isNull() {
        return claimed == null && !noProc;
    }

    /** Whether this is {@code MPI_MESSAGE_NO_PROC}: the message of a probe of {@code PROC_NULL}. */
    public boolean isNoProc() {
        return noProc;
    }

    /** Waits for a message {@code source}/{@code tag} would receive on {@code comm} and ties it to this handle. */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        CommState c = comm.state();
        free(c);
        try {
            boolean first = true;
            while (true) {
                Status s = claim(c, source, tag);
                if (s != null) {
                    return s;
                }
                c.engine().idleRound(first);
                first = false;
            }
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** {@link #mProbe} if such a message has arrived; null (and this handle unchanged) if not. */
    public @Nullable Status imProbe(int source, int tag, Comm comm) throws MPIException {
        CommState c = comm.state();
        free(c);
        try {
            return claim(c, source, tag);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** Receives this handle's message into at most {@code count} items of {@code type}; the handle becomes null. */
    public Status mRecv(@Nullable Object buf, int count, Datatype type) throws MPIException {
        CommState c = held();
        try {
            ReceiveOperation op = MatchedProbe.receive(c, claimed, buf, CommArgs.items(count, type),
                    CommArgs.base(type));
            release();
            c.engine().await(op);
            return Request.statusOf(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** Starts receiving this handle's message; the handle becomes null at once, the request completes later. */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        CommState c = held();
        Buffers.checkNonblocking(buf, c.engine().config().strictBuffers());
        try {
            ReceiveOperation op = MatchedProbe.receive(c, claimed, buf, CommArgs.items(count, type),
                    CommArgs.base(type));
            release();
            return new Request(c, op);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** The status of a message claimed on {@code c} (tying it to this handle), or null if none has arrived. */
    private @Nullable Status claim(CommState c, int source, int tag) {
        if (source == MPI.PROC_NULL) {
            noProc = true;
            comm = c;
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, false);
        }
        ClaimedMessage m = MatchedProbe.claim(c, source, tag);
        if (m == null) {
            return null;
        }
        claimed = m;
        noProc = false;
        comm = c;
        return new Status(m.source(), m.tag(), MPI.SUCCESS, m.bytes(), false);
    }

    /** Fails if this handle still holds a message nobody has received. */
    private void free(CommState c) throws MPIException {
        if (claimed != null) {
            throw MPI.raise(c, MPI.ERR_REQUEST, "this Message still holds a matched message: receive it with mRecv"
                    + " or imRecv before probing again with the same handle");
        }
    }

    /** The communicator of the message this handle holds; ERR_REQUEST if it holds none. */
    private CommState held() throws MPIException {
        MPI.check();
        CommState c = comm;
        if (isNull() || c == null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_REQUEST, "a null Message (never probed, or received"
                    + " already) cannot be received: call mProbe or imProbe first");
        }
        return c;
    }

    private void release() {
        claimed = null;
        noProc = false;
        comm = null;
    }
}
