package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.Transport;

/**
 * Hands the engine's messages to the transport, never under the engine lock; a payload that fits is staged first
 * (copied into a {@link SendStaging} buffer) so that its END event is logged before the transport has it.
 */
final class MessageSender {
    /** The engine's logger: a refused message is the engine's news. */
    private static final System.Logger LOG = System.getLogger(PortalsEngine.class.getName());

    private final Transport transport;
    private final SendStaging staging;

    MessageSender(Transport transport, SendStaging staging) {
        this.transport = transport;
        this.staging = staging;
    }

    /**
     * Whether the payload of {@code length} bytes that {@code op} sends to {@code rank} is staged: copied into a
     * buffer of {@link #staging}, which {@code op} then owns (an empty payload needs none), so that its END event is
     * logged as soon as the copy is made ({@link #sendStaged}). Not when the payload is larger than the buffers or
     * none is free: the transport then reads the MD, and the END event waits for its report. Not either when the
     * transport would refuse the message at once (the peer is known dead, the endpoint is closed): the operation
     * then fails with its FAIL event (3.3: its END event's {@code ni_fail_type}), as without staging. Under the
     * engine lock.
     */
    boolean stage(PendingOp op, long length, int rank) {
        if (!staging.fits(length) || !transport.isPeerAlive(rank) || !transport.isPeerAlive(transport.rank())) {
            return false;
        }
        if (length == 0) {
            return true;
        }
        op.staging = staging.take();
        return op.staging != SendStaging.NONE;
    }

    /**
     * Sends a staged message ({@link #stage}): copies the payload into the op's buffer, outside the engine lock (the
     * MD is pending, so it cannot go away; the buffer is the op's), has {@code side} log the END event, and hands
     * the copy to the transport. The END event comes before the transport has the message, so nothing the message
     * causes (the target's answer, a token come round a ring) can be logged on the same queue before it. When the
     * MD's memory cannot be read (its arena was closed), the MD is handed to the transport as it is, which fails
     * the send as it would without staging, and the END event waits for its report.
     */
    void sendStaged(int rank, MemorySegment header, MemorySegment payload, long from, long length, long token,
                    int buffer, SendingSide side) {
        MemorySegment source = payload;
        long offset = from;
        if (buffer != SendStaging.NONE) {
            MemorySegment copy = staging.buffer(buffer);
            try {
                MemorySegment.copy(payload, from, copy, 0L, length);
                source = copy;
                offset = 0L;
            } catch (IllegalStateException gone) {
                send(rank, header, payload, from, length, token, side);
                return;
            }
        }
        side.stagedPayloadCopied(token);
        send(rank, header, source, offset, length, token, side);
    }

    /**
     * Hands a message to the transport. A transport that refuses it (closed, or any other exception) fails the
     * operation as an undelivered send would ({@link SendingSide#sendRefused}), so that it still completes
     * (SEND_FAIL, GET_FAIL, or REPLY_START and REPLY_FAIL) and nothing is left pending; an ack or a reply that
     * cannot be sent is lost as one the network lost, and so is a staged message, whose END event is logged
     * already (counted in {@link StatusRegister#SENDS_LOST}). Only a closed endpoint is expected: anything else is
     * logged.
     */
    void send(int rank, MemorySegment header, MemorySegment payload, long offset, long length, long token,
              SendingSide side) {
        try {
            transport.send(rank, header, MessageHeader.LENGTH, payload, offset, length, token);
        } catch (RuntimeException refused) {
            if (!(refused instanceof IllegalStateException)) {
                LOG.log(System.Logger.Level.ERROR, "rank " + transport.rank() + ": the " + transport.provider()
                        + " transport refused a message of " + length + " bytes to rank " + rank
                        + "; the operation fails", refused);
            }
            if (token != Transport.NO_NOTIFY) {
                side.sendRefused(token);
            }
        }
    }

    /** How many staging buffers are free now (diagnostics and tests); under the engine lock. */
    int freeStagingBuffers() {
        return staging.freeBuffers();
    }
}
