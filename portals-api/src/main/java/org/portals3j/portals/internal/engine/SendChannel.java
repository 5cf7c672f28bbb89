package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.internal.SpinLock;

/**
 * The way requests (puts and gets) go to one peer, one at a time, in turns: a request takes its turn under the engine
 * lock with its SEND_START ({@link #issued}), waits for it ({@link #awaitTurn}), writes its header and hands it to the
 * transport, and passes the turn on ({@link #pass}). So the order of SEND_START events equals the order the peer sees
 * the requests in: the one ordering guarantee of Portals 3.2 spec §3.9.2 (P-207). Responses (acks, replies) do not
 * take turns. A turn costs no atomic instruction: it is counted under the engine lock, which the request holds anyway.
 */
final class SendChannel {
    private static final VarHandle SERVING;

    final MessageHeader header = new MessageHeader();
    final MemorySegment buffer = header.segment();
    /** The turns given out so far (under the engine lock): the next request's turn. */
    long issued;
    /** The turn whose request may write {@link #header} and go to the transport now. */
    @SuppressWarnings("unused") // through SERVING
    private volatile long serving;

    /**
     * Waits until it is {@code turn}'s turn. A request before it is being handed to the transport, which may wait for
     * room (udp's backpressure): the waiter backs off as the engine's lock does ({@link SpinLock#backOff}).
     */
    void awaitTurn(long turn) {
        int round = 0;
        while ((long) SERVING.getAcquire(this) != turn) {
            round = SpinLock.backOff(this, round);
        }
    }

    /** Passes the turn on from {@code turn}, once its request is with the transport (or failed to be). */
    void pass(long turn) {
        SERVING.setRelease(this, turn + 1);
    }

    static {
        try {
            SERVING = MethodHandles.lookup().findVarHandle(SendChannel.class, "serving", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
