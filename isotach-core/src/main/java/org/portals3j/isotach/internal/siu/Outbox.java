package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.CacheLinePadding;
import org.portals3j.transport.internal.PaddedInt;

/**
 * The switch node's frames, queued under its lock and sent after it, in order, by one flusher at a time; clock items
 * join a frame queued for their link, and a lone CLOCK frame may wait for a reply (docs/isotach-switch-node.md).
 */
final class Outbox extends CacheLinePadding {
    private static final VarHandle FLUSHING;

    static {
        try {
            FLUSHING = MethodHandles.lookup().findVarHandle(Outbox.class, "flushing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * How many frames its own inline deliveries produced a flusher sends before it leaves the rest to the next flush.
     * Enough for every exchange that ends (a pulse's tokens and marks end once no host needs time); a bound for the
     * one that does not (time advancing with nothing to wait for, idle tick 0).
     */
    static final int OWN_FRAMES_PER_FLUSH = 4096;

    /**
     * How long a CLOCK frame of marks and wake-ups may wait for an ISO frame to the same link to carry it: enough for
     * a host to receive a message and answer it, short next to the token manager's idle tick (1 ms); a host that does
     * not answer loses at most this delay of its mark (docs/isotach-switch-node.md, "lingers").
     */
    static final long LINGER_NANOS = 20_000;

    private final Transport transport;
    private final Object lock;
    private final LongSupplier nanoClock;
    /** The host's own thread (the one that polls), once it has polled; only it lets a CLOCK frame linger. */
    private volatile @Nullable Thread hostThread;
    /** Whether the host's last two polls came less than {@link #LINGER_NANOS} apart: it will soon poll again. */
    private volatile boolean hostPollsOften;
    /** When the host last polled (its thread only). */
    private long lastHostPoll = Long.MIN_VALUE / 2;
    /**
     * Whether frames may linger at all: only on a transport with a thread of its own, which takes the receive path
     * back when the host stops polling and says so ({@link #pollersGone}). Without one (inmem) a host that stops
     * polling would hold its frames for as long as it does not poll.
     */
    private final boolean holdsBack;
    /** Set by {@link #pollersGone} until the host polls again: nothing lingers meanwhile. */
    private volatile boolean pollersGone;
    /**
     * 1 when frames were left queued with nobody to send them (see {@link #flushLeftover}). The host thread reads it on
     * every poll while other threads send through this outbox: alone on its cache line, the reads cost nothing until
     * it changes, where reading the queue's own fields made every frame another thread queued a cache miss.
     */
    private final PaddedInt leftover = new PaddedInt();
    /**
     * When the leftover is due: the end of a lingering frame's time, or {@link Long#MIN_VALUE} for at once. Written
     * before {@link #leftover} is set, read after it is seen set.
     */
    private long leftoverDue = Long.MIN_VALUE;
    private int[] peer;
    private byte[][] header;
    private int[] headerLength;
    private MemorySegment[] payload;
    private long[] payloadOffset;
    private long[] payloadLength;
    private long[] token;
    /** A view of each entry's header bytes, for merging clock items into it while it waits. */
    private MemorySegment[] headerView;
    /** When each CLOCK frame was queued (for lingering). */
    private long[] queuedAt;
    private int head;
    /** How many frames have left the queue since creation: with {@link #head}, maps a frame's number to its entry. */
    private long dequeued;
    /** Per link: the number of the last frame queued for it, -1 when none. */
    private final long[] lastQueued;
    /** Written under the lock; volatile so that an empty outbox costs a flush no lock and no flag. */
    private volatile int size;
    @SuppressWarnings("unused") // accessed through FLUSHING
    private volatile int flushing;
    /**
     * The id of the thread holding the flush flag (0 when none). Plain: it is read under the lock by threads queuing,
     * and a thread can mistake only another's id for its own, never the reverse (its own writes it always sees), so a
     * stale value at worst makes the flusher take a batch it would have taken anyway.
     */
    private long flusher;
    /** Whether a thread other than the flusher queued frames while it held the flag (guarded by lock). */
    private boolean othersAdded;
    /** Frames a flusher takes out of the queue under one acquisition of the lock, then sends without it. */
    private static final int SEND_BATCH = 16;
    private final int[] sendTo = new int[SEND_BATCH];
    private final int[] sendLength = new int[SEND_BATCH];
    private final byte[][] sendHeader = new byte[SEND_BATCH][Frame.MAX_LENGTH];
    private final MemorySegment[] sendHeaderView = new MemorySegment[SEND_BATCH];
    private final MemorySegment[] sendBody = new MemorySegment[SEND_BATCH];
    private final long[] sendOffset = new long[SEND_BATCH];
    private final long[] sendBodyLength = new long[SEND_BATCH];
    private final long[] sendNotify = new long[SEND_BATCH];

    Outbox(Transport transport, Object lock, int capacity) {
        this(transport, lock, capacity, NanoClock.SYSTEM);
    }

    Outbox(Transport transport, Object lock, int capacity, LongSupplier nanoClock) {
        this(transport, lock, capacity, nanoClock, true);
    }

    /** @param holdsBack whether CLOCK frames may linger: the transport has a thread that calls {@link #pollersGone} */
    Outbox(Transport transport, Object lock, int capacity, LongSupplier nanoClock, boolean holdsBack) {
        this.transport = transport;
        this.holdsBack = holdsBack;
        this.lock = lock;
        this.nanoClock = nanoClock;
        queuedAt = new long[capacity];
        peer = new int[capacity];
        header = new byte[capacity][Frame.MAX_LENGTH];
        headerLength = new int[capacity];
        payload = new MemorySegment[capacity];
        Arrays.fill(payload, MemorySegment.NULL);
        payloadOffset = new long[capacity];
        payloadLength = new long[capacity];
        token = new long[capacity];
        headerView = new MemorySegment[capacity];
        for (int i = 0; i < capacity; i++) {
            headerView[i] = MemorySegment.ofArray(header[i]);
        }
        for (int k = 0; k < SEND_BATCH; k++) {
            sendHeaderView[k] = MemorySegment.ofArray(sendHeader[k]);
            sendBody[k] = MemorySegment.NULL;
        }
        lastQueued = new long[transport.size()];
        Arrays.fill(lastQueued, -1);
    }

    /**
     * The header of the last frame queued for {@code to} if it is still waiting and carries a clock section (caller
     * holds the lock and may merge into the section), else null: nothing else for {@code to} is queued behind it, so
     * a clock item merged there reaches {@code to} exactly where a frame of its own would have.
     */
    @Nullable MemorySegment pendingClock(int to) {
        long n = lastQueued[to];
        if (n < dequeued) {
            return null;
        }
        int i = (int) ((head + (n - dequeued)) % peer.length);
        return Frame.clockOffset(header[i][0]) < 0 ? null : headerView[i];
    }

    /** Queues a frame (caller holds the lock). {@code frame} is copied; returns the copy, which waits in the queue. */
    MemorySegment add(int to, MemorySegment frame, int length, MemorySegment body, long offset, long bodyLength,
                      long notify) {
        if (size == peer.length) {
            grow();
        }
        int i = (head + size) % peer.length;
        peer[i] = to;
        MemorySegment.copy(frame, 0, headerView[i], 0, length);
        byte kind = header[i][0];
        if (kind == Frame.CLOCK) {
            if (holdsBack) {
                queuedAt[i] = NanoClock.read(nanoClock); // only a frame that may linger needs its time
            }
        } else if (Frame.clockOffset(kind) >= 0) {
            absorbLingering(to, i);
        }
        headerLength[i] = length;
        if (bodyLength != 0 && payload[i] != body) {
            payload[i] = body; // only when it changes, and never cleared: see the class documentation
        }
        payloadOffset[i] = offset;
        payloadLength[i] = bodyLength;
        token[i] = notify;
        lastQueued[to] = dequeued + size;
        size++;
        if (flusher != Thread.currentThread().threadId()) {
            othersAdded = true;
        }
        return headerView[i];
    }

    /**
     * A CLOCK frame still queued as the last one for {@code to}: its tokens, marks and wake-ups join entry {@code i}.
     */
    private void absorbLingering(int to, int i) {
        long n = lastQueued[to];
        if (n < dequeued) {
            return;
        }
        int j = (int) ((head + (n - dequeued)) % peer.length);
        MemorySegment from = headerView[j];
        if (header[j][0] != Frame.CLOCK || headerLength[j] == 0) {
            return;
        }
        if (!ClockSection.mergeInto(from, Frame.O_CLOCK, headerView[i], Frame.clockOffset(header[i][0]))) {
            return; // never for a frame being queued (its section is empty): kept for the section's contract
        }
        headerLength[j] = 0; // absorbed: the flush skips it
    }

    /** Whether the frame at the head, the only one queued, is a CLOCK frame the calling thread may hold back. */
    private boolean lingersLocked() {
        int i = head;
        return holdsBack && !pollersGone && size == 1 && header[i][0] == Frame.CLOCK && headerLength[i] > 0
                && Thread.currentThread() == hostThread && hostPollsOften
                && (ClockSection.flags(headerView[i], Frame.O_CLOCK) & ClockSection.ACK_NOW) == 0
                && NanoClock.read(nanoClock) - queuedAt[i] < LINGER_NANOS;
    }

    /**
     * The host's poll: its thread may let CLOCK frames linger (see the class documentation), while it polls at least
     * once per {@link #LINGER_NANOS}, so that its next poll sends a frame whose time is up. Returns the time it read.
     */
    long hostPolls() {
        Thread self = Thread.currentThread();
        if (hostThread != self) {
            hostThread = self;
        }
        if (pollersGone) {
            pollersGone = false; // back
        }
        long now = NanoClock.read(nanoClock);
        boolean often = now - lastHostPoll < LINGER_NANOS;
        lastHostPoll = now;
        if (often != hostPollsOften) {
            hostPollsOften = often;
        }
        return now;
    }

    private void grow() {
        int n = peer.length;
        int[] p = peer;
        byte[][] h = header;
        int[] hl = headerLength;
        MemorySegment[] b = payload;
        long[] bo = payloadOffset;
        long[] bl = payloadLength;
        long[] t = token;
        long[] qa = queuedAt;
        int capacity = n * 2;
        queuedAt = new long[capacity];
        peer = new int[capacity];
        header = new byte[capacity][];
        headerLength = new int[capacity];
        payload = new MemorySegment[capacity];
        Arrays.fill(payload, MemorySegment.NULL);
        payloadOffset = new long[capacity];
        payloadLength = new long[capacity];
        token = new long[capacity];
        headerView = new MemorySegment[capacity];
        for (int k = 0; k < n; k++) {
            int i = (head + k) % n;
            peer[k] = p[i];
            header[k] = h[i];
            headerLength[k] = hl[i];
            payload[k] = b[i];
            payloadOffset[k] = bo[i];
            payloadLength[k] = bl[i];
            token[k] = t[i];
            queuedAt[k] = qa[i];
        }
        for (int k = n; k < header.length; k++) {
            header[k] = new byte[Frame.MAX_LENGTH];
        }
        for (int k = 0; k < header.length; k++) {
            headerView[k] = MemorySegment.ofArray(header[k]);
        }
        head = 0;
    }

    /**
     * Sends what is queued unless another thread is already doing so.
     *
     * <p>The flusher sends the frames queued when it started, and keeps going while other threads queue more (they
     * found the flag taken and count on it). Frames its own sends produced through inline delivery (an in-memory
     * transport runs the receiver's handler in the sender's thread) it sends up to {@link #OWN_FRAMES_PER_FLUSH}, then
     * leaves for the next flush, which the host's next poll ({@link #flushLeftover}) or the next arriving frame makes:
     * with logical time advancing for ever the exchange of tokens and marks never ends, and the thread would never
     * return to its application. Frames leave the queue up to {@link #SEND_BATCH} at a time under one acquisition of
     * the switch node's lock, which the transport side contends for with the host thread.
     */
    void flush() {
        flush(false);
    }

    /**
     * {@link #flush} after the switch node took frames off the network: a CLOCK frame of marks and wake-ups the host's
     * own thread queued last may linger (see the class documentation). Every other flush sends at once: an ask for
     * time at stamping or at the end of a batching period must not wait.
     */
    void flushMayLinger() {
        flush(true);
    }

    /**
     * The host's thread has stopped polling ({@link org.portals3j.transport.PollingHandler#onPollersGone}, from the
     * transport's thread): whatever lingers goes now, and nothing lingers until the host polls again. A flush in
     * progress is waited for (it ends soon: it never waits for anything), so a frame it has just decided to hold back
     * is not left behind.
     */
    void pollersGone() {
        pollersGone = true;
        if (size == 0 && leftover.get() == 0) {
            return;
        }
        while ((int) FLUSHING.compareAndExchange(this, 0, 1) != 0) {
            Thread.onSpinWait();
        }
        leftover.setVolatile(0);
        flushHoldingFlag(false);
    }

    private void flush(boolean mayLinger) {
        if (size == 0) {
            return; // every poll flushes: keep the empty case free
        }
        if ((int) FLUSHING.compareAndExchange(this, 0, 1) != 0) {
            return;
        }
        flushHoldingFlag(mayLinger);
    }

    /** The flush proper; the caller has taken the flag. */
    private void flushHoldingFlag(boolean mayLinger) {
        flusher = Thread.currentThread().threadId();
        boolean flagHeld = true;
        boolean stranded = false;
        boolean lingered = false;
        long lingerEnds = 0;
        int ownBudget = OWN_FRAMES_PER_FLUSH;
        int batch = -1;
        try {
            while (true) {
                int n;
                synchronized (lock) {
                    if (batch < 0 || (batch == 0 && othersAdded)) {
                        batch = size;
                        othersAdded = false;
                    } else if (batch == 0 && size > 0 && ownBudget > 0) {
                        // Frames our own inline deliveries produced: keep the exchange going for a while (a host that
                        // has stopped polling must not strand the mark the token manager waits for), but not forever.
                        batch = Math.min(size, ownBudget);
                        ownBudget -= batch;
                    }
                    n = Math.min(Math.min(batch, size), SEND_BATCH);
                    if (n > 0 && mayLinger && lingersLocked()) {
                        n = 0; // it waits for an ISO frame to carry it, or for the host's next poll
                        lingerEnds = queuedAt[head] + LINGER_NANOS;
                        lingered = true;
                    }
                    if (n == 0) {
                        // Let go under the lock: a thread queuing after this finds the flag free and flushes itself;
                        // one that queued before set othersAdded, seen above.
                        stranded = size > 0;
                        flusher = 0;
                        FLUSHING.setRelease(this, 0);
                        flagHeld = false;
                        break;
                    }
                    for (int k = 0; k < n; k++) {
                        int i = head;
                        sendTo[k] = peer[i];
                        sendLength[k] = headerLength[i];
                        System.arraycopy(header[i], 0, sendHeader[k], 0, headerLength[i]);
                        if (payloadLength[i] != 0 && sendBody[k] != payload[i]) {
                            sendBody[k] = payload[i];
                        }
                        sendOffset[k] = payloadOffset[i];
                        sendBodyLength[k] = payloadLength[i];
                        sendNotify[k] = token[i];
                        head = (head + 1) % peer.length;
                        dequeued++;
                        size--;
                    }
                    batch -= n;
                }
                for (int k = 0; k < n; k++) {
                    MemorySegment body = sendBodyLength[k] == 0 ? MemorySegment.NULL : sendBody[k];
                    if (sendLength[k] == 0) {
                        continue; // absorbed into a later frame
                    }
                    try {
                        transport.send(sendTo[k], sendHeaderView[k], sendLength[k], body, sendOffset[k],
                                sendBodyLength[k], sendNotify[k]);
                    } catch (IllegalStateException closed) {
                        return; // the endpoint closed under us (shutdown): nothing more can be sent
                    }
                }
            }
        } finally {
            if (flagHeld) {
                flusher = 0;
                FLUSHING.setRelease(this, 0);
            }
        }
        if (stranded) {
            // A frame lingers (the host's next poll after its time sends it), or our own budget ran out (the next poll
            // sends the rest).
            leftoverDue = lingered ? lingerEnds : Long.MIN_VALUE;
            leftover.setVolatile(1);
        }
    }

    /**
     * The host's poll at {@code now}: sends what a flusher left, a frame that lingers once its time is up, the rest of
     * a flush whose budget for frames its own inline deliveries produced ran out at once (every other frame is sent by
     * the thread that queued it, or by the flusher it found busy). Reads one flag that changes only then, and the time
     * the leftover is due, so that a host polling while its frame lingers takes neither the flush flag nor the lock.
     */
    void flushLeftover(long now) {
        if (leftover.get() != 0) {
            long due = leftoverDue;
            if (due != Long.MIN_VALUE && now - due < 0) {
                return;
            }
            leftover.setVolatile(0);
            flush(true);
        }
    }
}
