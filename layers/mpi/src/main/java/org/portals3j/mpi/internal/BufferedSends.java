package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The buffer of one rank's buffered-mode sends ({@code MPI.attachBuffer}, {@code bSend}, {@code ibSend}; MPI 4.1
 * section 3.6): each message is copied into the attached array, in a block of its length rounded up to 8 bytes plus
 * {@link #OVERHEAD} bytes (what {@code MPI.BSEND_OVERHEAD} tells programs to reserve), and sent from there as a
 * standard send; the block is free again once that send has completed (seen when the next buffered send looks for
 * room, or by {@link #detach}). Blocks are placed first-fit in offset order. A message that does not fit, or a
 * buffered send with no buffer attached, is {@code ERR_BUFFER} and nothing is sent. {@link #detach} waits until
 * every buffered message has gone. Thread-safe.
 */
public final class BufferedSends {
    /** Bytes reserved per message besides its data (the value of {@code MPI.BSEND_OVERHEAD}). */
    public static final int OVERHEAD = 128;
    private static final int ALIGN = 8;

    /** A block of the buffer in use: {@code [start, end)}, holding the data of {@code op}. */
    private record Block(long start, long end, SendOperation op) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final List<Block> blocks = new ArrayList<>();
    private byte @Nullable [] attached;
    private MemorySegment memory = MemorySegment.NULL;

    /** {@code MPI.attachBuffer}: ERR_BUFFER if a buffer is attached already. */
    public void attach(byte[] buffer) {
        lock.lock();
        try {
            if (attached != null) {
                throw new MpiError(ErrorClass.BUFFER, "a buffer of " + attached.length + " bytes is attached already:"
                        + " detach it before attaching another");
            }
            attached = buffer;
            memory = MemorySegment.ofArray(buffer);
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code MPI.detachBuffer}: waits until every message buffered in it has been sent, then returns the array;
     * ERR_BUFFER if none is attached.
     */
    public byte[] detach(PointToPoint engine) {
        lock.lock();
        try {
            byte[] buffer = attached;
            if (buffer == null) {
                throw new MpiError(ErrorClass.BUFFER, "no buffer is attached for buffered sends");
            }
            for (Block b : blocks) {
                engine.await(b.op);
            }
            blocks.clear();
            attached = null;
            memory = MemorySegment.NULL;
            return buffer;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Copies {@code data} into the buffer and starts sending the copy to job rank {@code dest} with match bits
     * {@code bits}.
     *
     * @throws MpiError ERR_BUFFER if no buffer is attached or it has no room for the message
     */
    public void send(PointToPoint engine, MemorySegment data, int dest, long bits) {
        engine.progress();
        lock.lock();
        try {
            if (attached == null) {
                throw new MpiError(ErrorClass.BUFFER, "no buffer is attached for buffered sends: give one to"
                        + " MPI.attachBuffer first (message bytes + MPI.BSEND_OVERHEAD per message)");
            }
            blocks.removeIf(b -> b.op.isDone());
            long need = (data.byteSize() + ALIGN - 1) / ALIGN * ALIGN + OVERHEAD;
            int index = 0;
            long at = 0;
            while (index < blocks.size() && blocks.get(index).start - at < need) {
                at = blocks.get(index).end;
                index++;
            }
            if (memory.byteSize() - at < need && index == blocks.size()) {
                throw new MpiError(ErrorClass.BUFFER, "the attached buffer (" + memory.byteSize() + " bytes) has no"
                        + " room for a buffered message of " + data.byteSize() + " bytes (+ " + OVERHEAD
                        + " bytes of overhead) besides the " + blocks.size() + " still being sent: attach a larger"
                        + " buffer, or complete earlier sends");
            }
            MemorySegment copy = memory.asSlice(at + OVERHEAD, data.byteSize());
            MemorySegment.copy(data, 0, copy, 0, data.byteSize());
            SendOperation op = new SendOperation(copy);
            engine.startSend(op, dest, bits, false);
            blocks.add(index, new Block(at, at + need, op));
        } finally {
            lock.unlock();
        }
    }
}
