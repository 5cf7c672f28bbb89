package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.internal.CacheLinePadding;
import org.portals3j.transport.internal.PaddedInt;

/**
 * Frames an inline transport delivered for the switch node, handed in arrival order to the host's thread while it
 * polls and drained by whoever delivers while it does not; one producer, one drainer (docs/isotach-switch-node.md).
 */
public final class ArrivalQueue {
    /** What a queued frame is, as the engine classified it when it arrived. */
    public static final int FRAME = 0;
    /** An ISO frame whose payload is in its receive slot. */
    public static final int ISO = 1;
    /** An ISO frame whose packet was refused: only its clock items count. */
    public static final int CLOCK_ONLY = 2;

    /**
     * How many frames a drain by a thread other than the host's processes before it leaves the rest: with the clock
     * running for ever (idle tick 0) and no host polling, an exchange of tokens and marks through the queues of two
     * ranks never ends, and the thread that happened to deliver would never return to its own work. The rest waits
     * for the next delivery or poll, like the outbox's frames ({@link Outbox#OWN_FRAMES_PER_FLUSH}).
     */
    static final int FOREIGN_DRAIN_BUDGET = 4096;

    /** Where the frames go: the engine's dispatch. */
    public interface Sink {
        /** One frame, in arrival order; {@code header} is valid only during the call. */
        void arrived(int source, int type, MemorySegment header);

        /** A peer failed or left, after every frame it sent here. */
        void peerDown(int peer);
    }

    /**
     * Bytes per entry: the frame, then its source and type, on two cache lines of their own where the array's
     * alignment allows, so that the producer writing one entry and the consumer reading the one before it share no
     * line (docs/isotach-switch-node.md).
     */
    static final int STRIDE = 128;
    private static final int O_SOURCE = STRIDE - 8;
    private static final int O_TYPE = STRIDE - 4;

    static {
        if (Frame.MAX_LENGTH > O_SOURCE) {
            throw new ExceptionInInitializerError("an arrival entry holds frames of at most " + O_SOURCE + " bytes");
        }
    }

    private final Sink sink;
    // Replaced only by grow(), under the drain flag or by its holder: a drainer reads them after taking the flag, and
    // re-reads them after each frame it hands to the sink (which may have grown the queue on the same thread). Nothing
    // else in this object is written while frames flow: the fields each side writes are in padded holders.
    private int mask;
    private MemorySegment slab;
    /** Entry i: the slice of {@link #slab} at i * STRIDE. */
    private MemorySegment[] entry;
    /**
     * Positions, counted modulo 2^32 (differences stay exact: the queue never holds 2^31 frames). The tail is written
     * by the producer only, the head by the drainer only; each alone on its cache line.
     */
    private final PaddedInt tail = new PaddedInt();
    private final PaddedInt head = new PaddedInt();
    private final PaddedInt draining = new PaddedInt();
    /** The producer's last look at the head: it reads the head itself only when this says the queue is full. */
    private final PaddedInt headSeen = new PaddedInt();
    /** The thread holding {@link #draining}: plain, since only that thread needs to recognise itself in it. */
    private final DrainerSide drainer = new DrainerSide();
    /** Per peer: 1 once reported down, 2 once applied. */
    private final AtomicIntegerArray down;
    private final PaddedInt downPending = new PaddedInt();
    private final int[] downScratch;

    /** A queue of at least {@code minCapacity} frames (rounded up to a power of two) from {@code peers} peers. */
    public ArrivalQueue(int minCapacity, int peers, Sink sink) {
        int capacity = Integer.highestOneBit(Math.max(2, minCapacity) - 1) << 1;
        this.sink = sink;
        this.mask = capacity - 1;
        this.slab = MemorySegment.ofArray(new byte[capacity * STRIDE]);
        this.entry = slices(slab, capacity);
        this.down = new AtomicIntegerArray(peers);
        this.downScratch = new int[peers];
    }

    private static MemorySegment[] slices(MemorySegment slab, int capacity) {
        MemorySegment[] e = new MemorySegment[capacity];
        for (int i = 0; i < capacity; i++) {
            e[i] = slab.asSlice((long) i * STRIDE, STRIDE);
        }
        return e;
    }

    /**
     * Queues a frame of {@code length} bytes (at most {@link Frame#MAX_LENGTH}, checked by the caller). The tail is
     * written with a full fence: the caller reads next whether the host polls, and that read must not pass this write
     * (else a host declared gone meanwhile and a drainer that found the queue empty would strand the frame).
     */
    public void add(int from, int kind, MemorySegment frame, int length) {
        int t = tail.get();
        if (t - headSeen.get() > mask) {
            headSeen.setRelease(head.get());
            if (t - headSeen.get() > mask) {
                growFull(t);
            }
        }
        MemorySegment e = entry[t & mask];
        MemorySegment.copy(frame, 0, e, 0, length);
        e.set(ValueLayout.JAVA_INT_UNALIGNED, O_SOURCE, from);
        e.set(ValueLayout.JAVA_INT_UNALIGNED, O_TYPE, kind);
        tail.setVolatile(t + 1);
    }

    /** A peer failed: applied by the next drain, after the frames queued before it. */
    public void peerDown(int peer) {
        if (down.compareAndSet(peer, 0, 1)) {
            downPending.setVolatile(1);
        }
    }

    public boolean isEmpty() {
        return tail.get() == head.get() && downPending.get() == 0;
    }

    /**
     * The host's poll: processes what was queued when it started, unless another thread is draining (it will
     * finish). What arrives meanwhile waits for the next poll.
     */
    public void drainForHost() {
        if (isEmpty() || !draining.compareAndSet(0, 1)) {
            return;
        }
        drainer.thread = Thread.currentThread().threadId();
        try {
            drainOnce(Long.MAX_VALUE);
        } finally {
            drainer.thread = 0;
            draining.setVolatile(0);
        }
    }

    /**
     * A thread other than a polling host's (the host does not poll): processes everything queued, and what arrives
     * meanwhile, up to {@link #FOREIGN_DRAIN_BUDGET} frames, unless another thread is draining (it re-checks the queue
     * after it lets go of the flag, so nothing is stranded).
     */
    public void drainForeign() {
        long budget = FOREIGN_DRAIN_BUDGET;
        while (budget > 0 && !isEmpty() && draining.compareAndSet(0, 1)) {
            drainer.thread = Thread.currentThread().threadId();
            try {
                budget -= drainOnce(budget);
            } finally {
                drainer.thread = 0;
                // A full store: the isEmpty() load of the loop must not pass it (a producer that queued meanwhile saw
                // the flag taken and counts on us).
                draining.setVolatile(0);
            }
        }
    }

    /** The queue is full: it doubles, by its drainer or under the drain flag (waiting for a drainer in progress). */
    private void growFull(int t) {
        if (drainer.thread == Thread.currentThread().threadId()) {
            grow(t);
            return;
        }
        while (!draining.compareAndSet(0, 1)) {
            Thread.onSpinWait();
        }
        try {
            grow(t);
        } finally {
            draining.setVolatile(0);
        }
    }

    private void grow(int t) {
        int h = head.get();
        int capacity = (mask + 1) * 2;
        int newMask = capacity - 1;
        MemorySegment newSlab = MemorySegment.ofArray(new byte[capacity * STRIDE]);
        for (int p = h; p != t; p++) { // the same positions under the new mask: a drainer's head stays valid
            MemorySegment.copy(slab, (long) (p & mask) * STRIDE, newSlab, (long) (p & newMask) * STRIDE, STRIDE);
        }
        slab = newSlab;
        entry = slices(newSlab, capacity);
        mask = newMask;
        headSeen.setRelease(h);
    }

    /** Processes up to {@code budget} frames queued now, then the failures reported before them; returns how many. */
    private long drainOnce(long budget) {
        int downs = 0;
        if (downPending.get() != 0) { // before the tail: a dead peer's frames are all in by then
            downPending.setVolatile(0);
            for (int p = 0; p < down.length(); p++) {
                if (down.get(p) == 1) {
                    down.set(p, 2);
                    downScratch[downs++] = p;
                }
            }
        }
        int t = tail.get();
        int start = head.get();
        int count = (int) Math.min(t - start, budget);
        try {
            for (int k = 0, h = start; k < count; k++, h++) {
                MemorySegment e = entry[h & mask];
                try {
                    sink.arrived(e.get(ValueLayout.JAVA_INT_UNALIGNED, O_SOURCE),
                            e.get(ValueLayout.JAVA_INT_UNALIGNED, O_TYPE), e);
                } finally {
                    head.setRelease(h + 1);
                }
            }
        } finally {
            boolean done = head.get() == t;
            for (int k = 0; k < downs; k++) {
                int p = downScratch[k];
                if (done) {
                    sink.peerDown(p);
                } else {
                    down.set(p, 1); // frames queued before the failure are still waiting: the next drain applies it
                    downPending.setVolatile(1);
                }
            }
        }
        return count;
    }

    /** The drainer's own state, alone on its cache lines (HotSpot lays out a superclass's fields first). */
    private static final class DrainerSide extends DrainerThread {
        long q0;
        long q1;
        long q2;
        long q3;
        long q4;
        long q5;
        long q6;
        long q7;
    }

    private abstract static class DrainerThread extends CacheLinePadding {
        /** The draining thread's id, 0 when none (an id, not the Thread: no reference store, see Outbox). */
        long thread;
    }
}
