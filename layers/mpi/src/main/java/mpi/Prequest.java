package mpi;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.BufferedSends;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Messages;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.Operation;

/**
 * A persistent request (mpi-java-api.md section 1.7; MPI 4.1 section 3.9): made inactive by {@code Comm.sendInit},
 * {@code bSendInit}, {@code sSendInit}, {@code rSendInit} or {@code recvInit}, with its arguments checked then;
 * each {@link #start()} begins one operation with those arguments, and completing it ({@code waitFor}, a successful
 * {@code test}, the array forms) makes the request inactive again, not null. A wait or test on an inactive request
 * returns at once with MPI's empty status; {@code isNull()} stays false until {@code free()}. Starting a request that
 * is active, or freed, is {@code ERR_REQUEST}. The buffer belongs to the operation from each {@code start} until that
 * round completes (section 4.7).
 */
public final class Prequest extends Request {
    /** The send mode or receive a persistent request repeats. */
    enum Mode { STANDARD, BUFFERED, SYNCHRONOUS, READY, RECEIVE }

    private final CommState owner;
    private final Buffer buffer;
    private final int count;
    private final @Nullable BaseType type;
    private final int peer;
    private final int tag;
    private final Mode mode;
    private volatile boolean freed;

    /** An inactive request; the arguments have been checked. */
    Prequest(CommState owner, Buffer buffer, int count, @Nullable BaseType type, int peer, int tag, Mode mode) {
        this.owner = owner;
        this.buffer = buffer;
        this.count = count;
        this.type = type;
        this.peer = peer;
        this.tag = tag;
        this.mode = mode;
    }

    /** Starts one round: ERR_REQUEST if the request is active or freed. */
    public void start() throws MPIException {
        MPI.check();
        if (freed) {
            throw MPI.raise(owner, MPI.ERR_REQUEST, "cannot start a freed persistent request");
        }
        if (isActive()) {
            throw MPI.raise(owner, MPI.ERR_REQUEST, "cannot start a persistent request that is still active:"
                    + " complete it (waitFor, test, waitAll...) before starting it again");
        }
        BufferedSends attached = MPI.process().bufferedSends();
        try {
            activate(owner, begin(attached));
        } catch (MpiError e) {
            throw MPI.raise(owner, e);
        }
    }

    /** Starts every request of {@code requests} in order (a null element is skipped). */
    public static void startAll(@Nullable Prequest[] requests) throws MPIException {
        for (Prequest r : requests) {
            if (r != null) {
                r.start();
            }
        }
    }

    private Operation begin(BufferedSends attached) {
        return switch (mode) {
            case STANDARD, READY -> Messages.send(owner, buffer, count, type, peer, tag, false);
            case SYNCHRONOUS -> Messages.send(owner, buffer, count, type, peer, tag, true);
            case BUFFERED -> Messages.bufferedSend(owner, attached, buffer, count, type, peer, tag);
            case RECEIVE -> Messages.receive(owner, buffer, count, type, peer, tag);
        };
    }

    @Override
    boolean keepsHandle() {
        return !freed;
    }

    @Override
    void freeHandle() {
        freed = true;
    }
}
