package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;

/**
 * A receive. Its life: posted as a match entry before the mark ({@link State#POSTED}), or, a small one, on the
 * engine's list of pending receives ({@link State#PENDING}), or matched at once against an unexpected message; then
 * either complete, or waiting for the rest of an eager message still arriving ({@link State#AWAITING_DATA}), or
 * reading a rendezvous message's body ({@link State#FETCHING}).
 */
public final class ReceiveOperation extends Operation {
    enum State { NEW, POSTED, PENDING, AWAITING_DATA, FETCHING, DONE }

    /** Match bits and ignore bits wanted. */
    long want;
    long ignore;
    /** For a {@code boolean[]} receive, the array the staged bytes are copied into at the end. */
    boolean @Nullable [] booleans;
    /** What to do with the bytes once they have arrived (scatter a staged derived type), or null. */
    @Nullable Arrival arrival;
    State state = State.NEW;
    @Nullable MeHandle me;
    /** The posted MD's value (threshold 0 while the race with unexpected messages is closed). */
    @Nullable MemoryDescriptor posted;
    /** The next receive on the engine's pending list, while this one is on it. */
    @Nullable ReceiveOperation nextPending;
    /** Whether the posted entry is kept (not unlinked) once it has matched, to be posted again. */
    boolean kept;
    /** The match bits of the message being received by rendezvous. */
    long bits;
    /** The length of the message being received (to report truncation when its body arrives). */
    long messageLength;

    public ReceiveOperation(MemorySegment buffer, long want, long ignore, boolean @Nullable [] booleans) {
        super(buffer);
        this.want = want;
        this.ignore = ignore;
        this.booleans = booleans;
    }

    /** The inactive (threshold 0) and active (1) MDs last posted for this operation, kept for its reuse. */
    private @Nullable MemoryDescriptor inactiveMd;
    private @Nullable MemoryDescriptor activeMd;

    /** Makes this finished receive new again: {@code newBuffer}, matching {@code newWant}/{@code newIgnore}. */
    void reuse(MemorySegment newBuffer, long newWant, long newIgnore, boolean @Nullable [] newBooleans) {
        reuse(newBuffer);
        want = newWant;
        ignore = newIgnore;
        booleans = newBooleans;
        state = State.NEW;
        me = null;
        nextPending = null;
        kept = false;
        posted = null;
        bits = 0;
        messageLength = 0;
    }

    /** The posted receive's MD, inactive (threshold 0), events to {@code eq}: the last one if nothing changed. */
    MemoryDescriptor inactiveDescriptor(EqHandle eq) {
        MemoryDescriptor d = inactiveMd;
        if (d == null || d.start() != buffer || !d.eventq().equals(eq)) {
            long capacity = buffer.byteSize();
            d = new MemoryDescriptor(buffer, capacity, 0, capacity, MdOption.bits(MdOption.OP_PUT,
                    MdOption.TRUNCATE), this, eq);
            inactiveMd = d;
            activeMd = d.withThreshold(1);
        }
        return d;
    }

    /** {@link #inactiveDescriptor}'s twin with threshold 1. */
    MemoryDescriptor activeDescriptor() {
        MemoryDescriptor d = activeMd;
        if (d == null) {
            throw new IllegalStateException("activeDescriptor before inactiveDescriptor");
        }
        return d;
    }

    /** Ends the receive with {@code received} bytes of a message of {@code length} bytes from bits {@code bits}. */
    void finish(long bits, long received, long length) {
        source = MatchBits.source(bits);
        tag = MatchBits.tag(bits);
        bytes = received;
        if (length > received) {
            fail(ErrorClass.TRUNCATE, "message truncated: " + length + " bytes arrived for a receive of "
                    + buffer.byteSize() + " bytes (from rank " + source + ", tag " + tag + ")");
        }
        boolean[] b = booleans;
        if (b != null) {
            Buffers.copyBack(buffer, received, b);
        }
        Arrival a = arrival;
        if (a != null) {
            a.arrived(received);
        }
        state = State.DONE;
        complete();
    }

    /** Called on the engine's thread when a receive ends with data, before it completes. */
    @FunctionalInterface
    public interface Arrival {
        void arrived(long bytes);
    }
}
