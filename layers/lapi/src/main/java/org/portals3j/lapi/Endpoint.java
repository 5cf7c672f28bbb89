package org.portals3j.lapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.PeerTable;

/**
 * The Portals resources of one context: the interface, the event queue every MD reports to, the request portal's
 * receive ring, and the pool of staging buffers sends go out of. Sizes follow from the configuration: the ring holds
 * every packet the granted credits allow, and the event queue every event they can cause.
 */
final class Endpoint {
    static final int SMALLEST_CLASS = 64;

    final Portals portals;
    final NiHandle ni;
    final EqHandle eq;
    /**
     * The staging MDs' events, read after each send and when a size class has no free buffer (never by the
     * dispatcher): a send costs the dispatcher no wake-up.
     */
    private final EqHandle sendEq;
    private final Event sendEvent = new Event();
    /**
     * The events logged to {@link #sendEq} (its handler counts them) and those taken (under this object's lock):
     * a reap takes just the ones logged and never finds the queue empty, which would make its PtlEQGet poll the
     * network on the sending thread before the packet goes out.
     */
    private final AtomicLong sendsLogged;
    private long sendsTaken;
    /** How many reaps of counted events found the send queue empty, which polled the network (for tests). */
    private long emptyReaps;
    final int self;
    final int tasks;
    final int ptRequest;
    final int ptSource;
    final int maxPacket;
    /** The final replies this task defers, one of which rides on each packet {@link #send} sends to its origin. */
    final Acks acks;
    private final ProcessId[] procs;
    private final PeerTable peers;
    private final Arena arena = Arena.ofAuto();
    private final List<RingBuffer> ring = new ArrayList<>();
    /** Ring buffers attached (again), under {@link #ring}: each attach allocates the handles Portals returns. */
    private long ringAttaches;
    private final int[] classSizes;
    private final ArrayDeque<Staging>[] freeStaging;
    private final List<Staging> allStaging = new ArrayList<>();
    private final int maxStaging;
    private final long ringBytes;
    private int stagingCount;
    private volatile boolean closed;
    /** The 0-byte MD a wake-up put goes out of, and the source-portal entry only this task's own put matches. */
    private @Nullable MdHandle wakeMd;
    private @Nullable MeHandle wakeMe;

    @SuppressWarnings("unchecked")
    Endpoint(Portals portals, LapiConfig config, Arrivals arrivals) {
        this.portals = portals;
        portals.init();
        this.ni = portals.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        this.peers = portals.job().peers();
        this.tasks = peers.size();
        this.self = portals.rank();
        this.procs = new ProcessId[tasks];
        for (int r = 0; r < tasks; r++) {
            JobMember m = peers.member(r);
            procs[r] = new ProcessId(m.nid(), m.pid());
        }
        this.ptRequest = config.firstPortal();
        this.ptSource = config.firstPortal() + 1;
        this.maxPacket = Wire.HEADER + config.packetPayload();
        int c = config.credits();
        this.acks = new Acks(tasks, Math.max(1, Math.min(c / 2, config.packetPayload() / 8)));
        long perOrigin = (long) c * maxPacket + (2L * c + 8) * SMALLEST_CLASS;
        long events = (long) tasks * c * 12 + 1024;
        this.eq = portals.eqAlloc(ni, Math.min(events, 1 << 20), arrivals);
        List<Integer> sizes = new ArrayList<>();
        // Four classes per power of two (a put sends its whole MD: 1 KiB of data goes in 1280 bytes, not 2048).
        for (int s = SMALLEST_CLASS; s < maxPacket; s <<= 1) {
            for (int q = 4; q < 8 && s / 4 * q < maxPacket; q++) {
                sizes.add(s / 4 * q);
            }
        }
        sizes.add(maxPacket);
        classSizes = sizes.stream().mapToInt(Integer::intValue).toArray();
        freeStaging = new ArrayDeque[classSizes.length];
        for (int i = 0; i < classSizes.length; i++) {
            freeStaging[i] = new ArrayDeque<>();
        }
        maxStaging = tasks * (3 * c + 16) + 64;
        // Each staging buffer in flight has at most its SEND_START and SEND_END unread: this queue never overflows.
        AtomicLong logged = new AtomicLong();
        this.sendsLogged = logged;
        this.sendEq = portals.eqAlloc(ni, 2L * maxStaging + 64, e -> logged.incrementAndGet());
        ringBytes = tasks * perOrigin;
    }

    /** Attaches the receive ring; on failure releases what it had taken and rethrows. */
    void open() {
        try {
            attachRing(ringBytes);
            attachWake();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void attachRing(long bytes) {
        long size = Math.max(8L * maxPacket, 64 * 1024);
        long usable = size - 2L * maxPacket;
        long count = (bytes + usable - 1) / usable + 3;
        for (long i = 0; i < count; i++) {
            RingBuffer rb = new RingBuffer(arena.allocate(size, 8));
            synchronized (ring) {
                ring.add(rb);
            }
            attach(rb);
        }
    }

    /**
     * The wake-up path: a 0-byte put of this task to itself on the source portal, under match bits no operation id
     * has (ids are positive), from this task only, whose PUT_END ({@link Wire#WAKE} as user pointer) ends the
     * PtlEQWait of the thread that dispatches.
     */
    private void attachWake() {
        MeHandle me = portals.meAttach(ni, ptSource, procs[self], Wire.MATCH_WAKE, 0, Unlink.RETAIN,
                InsertPosition.AFTER);
        wakeMe = me;
        portals.mdAttach(me, new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0,
                MdOption.bits(MdOption.OP_PUT, MdOption.ACK_DISABLE), Wire.WAKE, eq), Unlink.RETAIN, Unlink.RETAIN);
        wakeMd = portals.mdBind(ni, new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0, 0,
                null, EqHandle.NONE));
    }

    /** Puts the wake-up event into this task's queue; false if the context is closed (no queue to wake). */
    boolean wake() {
        MdHandle md = wakeMd;
        if (closed || md == null) {
            return false;
        }
        try {
            portals.put(md, AckRequest.NOACK_REQ, procs[self], ptSource, 0, Wire.MATCH_WAKE, 0, 0);
            return true;
        } catch (PortalsException e) {
            return false;
        }
    }

    /** Attaches {@code rb} at the tail of the request portal's list (again, after it unlinked). */
    void attach(RingBuffer rb) {
        synchronized (ring) {
            if (closed) {
                return;
            }
            MemoryDescriptor md = rb.descriptor;
            if (md == null) {
                // Made once per buffer (a record: the re-posts reuse it and allocate no descriptor).
                long size = rb.segment.byteSize();
                md = new MemoryDescriptor(rb.segment, size, MemoryDescriptor.THRESH_INF, size - maxPacket,
                        MdOption.bits(MdOption.OP_PUT), rb, eq);
                rb.descriptor = md;
            }
            MeHandle me = portals.meAttach(ni, ptRequest, ProcessId.ANY, Wire.MATCH_REQUEST, 0, Unlink.UNLINK,
                    InsertPosition.AFTER);
            rb.me = me;
            portals.mdAttach(me, md, Unlink.UNLINK, Unlink.UNLINK);
            ringAttaches++;
        }
    }

    /** How many times a ring buffer was attached: the first attaches and the re-posts after each unlink. */
    long ringAttaches() {
        synchronized (ring) {
            return ringAttaches;
        }
    }

    ProcessId proc(int task) {
        return procs[task];
    }

    /** The task of the process with node id {@code nid}, or -1 (remote input). */
    int taskOfNid(int nid) {
        return peers.rankOfNid(nid);
    }

    /** A staging buffer of at least {@code bytes} bytes (a fresh one is bound if its class has none free). */
    Staging take(int bytes) {
        int k = classOf(bytes);
        synchronized (this) {
            Staging s = freeStaging[k].pollFirst();
            if (s == null) {
                reapSent(false);
                s = freeStaging[k].pollFirst();
            }
            if (s != null) {
                return s;
            }
            if (stagingCount >= maxStaging) {
                throw new LapiException(LapiError.MEMORY_EXHAUSTED, "every one of the " + maxStaging
                        + " staging buffers is in use; the flow-control credits should have prevented it");
            }
            stagingCount++;
        }
        Staging s = new Staging(arena.allocate(classSizes[k], 8), k);
        try {
            s.md = portals.mdBind(ni, new MemoryDescriptor(s.segment, s.segment.byteSize(), MemoryDescriptor.THRESH_INF,
                    s.segment.byteSize(), 0, s, sendEq));
        } catch (PortalsException e) {
            synchronized (this) {
                stagingCount--;
            }
            throw new LapiException(LapiError.MEMORY_EXHAUSTED, "binding a staging buffer failed", e);
        }
        synchronized (this) {
            allStaging.add(s);
        }
        return s;
    }

    /**
     * Puts back every staging buffer whose send has ended (its SEND_END or SEND_FAIL is in the send queue): the
     * events counted as logged, or (when {@code untilEmpty}) until PtlEQGet finds the queue empty. Under this lock.
     */
    private void reapSent(boolean untilEmpty) {
        try {
            for (long left = sendsLogged.get() - sendsTaken; untilEmpty || left > 0; left--) {
                if (portals.eqGet(sendEq, sendEvent) == ReturnCode.EQ_EMPTY) {
                    if (!untilEmpty) {
                        emptyReaps++;
                    }
                    return;
                }
                sendsTaken++;
                EventKind kind = sendEvent.type();
                if ((kind == EventKind.SEND_END || kind == EventKind.SEND_FAIL)
                        && sendEvent.userPtr() instanceof Staging sent) {
                    freeStaging[sent.sizeClass].addFirst(sent);
                }
            }
        } catch (PortalsException e) {
            // The queue is gone with the context: nothing more will be sent.
        }
    }

    synchronized void release(Staging s) {
        freeStaging[s.sizeClass].addFirst(s);
    }

    private int classOf(int bytes) {
        if (bytes > maxPacket) {
            throw new IllegalStateException("a packet of " + bytes + " bytes is over the largest, " + maxPacket);
        }
        int k = Arrays.binarySearch(classSizes, bytes);
        return k >= 0 ? k : -k - 1;
    }

    /**
     * Sends {@code s} (already written) to {@code task}'s request portal with one of the replies owed to it, if any;
     * the staging returns on SEND_END.
     */
    void send(Staging s, int task) {
        long ack = acks.takeOne(task);
        Wire.setLong(s.segment, Wire.ACK, ack);
        try {
            portals.put(s.md, AckRequest.NOACK_REQ, procs[task], ptRequest, 0, Wire.MATCH_REQUEST, 0, 0);
        } catch (PortalsException e) {
            release(s);
            if (ack != 0) {
                acks.restore(task, ack);
            }
            throw new LapiException(LapiError.UNKNOWN, "PtlPut to task " + task + " failed", e);
        }
        synchronized (this) {
            reapSent(false); // after the packet left, not before the next one: its sender finds a free buffer
        }
    }

    /** Sends a header-only packet. */
    void sendControl(int task, int kind, int flags, int aux, long msgId, long addr) {
        Staging s = take(Wire.HEADER);
        Wire.write(s.segment, kind, flags, 0, aux, msgId, addr, 0, 0);
        send(s, task);
    }

    /**
     * Exposes the first {@code length} bytes of {@code region} on the source portal for {@code task} under
     * {@code matchBits}, for one operation (the MD's length bounds it: no slice of the user's segment is made).
     */
    MeHandle expose(MemorySegment region, long length, int task, long matchBits, boolean forGet, Object userPtr) {
        MeHandle me = portals.meAttach(ni, ptSource, procs[task], matchBits, 0, Unlink.UNLINK, InsertPosition.AFTER);
        try {
            portals.mdAttach(me, new MemoryDescriptor(region, length, 1, length,
                    MdOption.bits(forGet ? MdOption.OP_GET : MdOption.OP_PUT), userPtr, eq), Unlink.UNLINK,
                    Unlink.UNLINK);
        } catch (PortalsException e) {
            portals.meUnlink(me);
            throw e;
        }
        return me;
    }

    /** A free-floating MD over the first {@code length} bytes of {@code region} for one fetch or one reply. */
    MdHandle bindOnce(MemorySegment region, long length, Object userPtr) {
        return portals.mdBind(ni, new MemoryDescriptor(region, length, MemoryDescriptor.THRESH_INF, length, 0,
                userPtr, eq));
    }

    void unlinkQuietly(MdHandle md) {
        try {
            portals.mdUnlink(md);
        } catch (PortalsException e) {
            // Already gone (unlinked with its interface, or by the engine): nothing is left to release.
        }
    }

    void unlinkQuietly(MeHandle me) {
        try {
            portals.meUnlink(me);
        } catch (PortalsException e) {
            // Already unlinked after its one operation: nothing is left to release.
        }
    }

    /**
     * Waits until every staging buffer's send has ended (its SEND_END or SEND_FAIL read), at most
     * {@code timeoutMillis}: LAPI_Term must not unlink a staging MD whose packet (a barrier release, a final
     * reply) has not left yet. Returns false if some were still in flight at the deadline.
     */
    boolean drainSends(long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            synchronized (this) {
                reapSent(true);
                if (freeCount() == allStaging.size()) {
                    return true;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** How many reaps of counted send events found the send queue empty (for tests). */
    synchronized long emptyReaps() {
        return emptyReaps;
    }

    /** How many staging buffers are bound (for tests). */
    synchronized int stagingBound() {
        return allStaging.size();
    }

    private int freeCount() {
        int n = 0;
        for (ArrayDeque<Staging> q : freeStaging) {
            n += q.size();
        }
        return n;
    }

    /** Unlinks the ring and the staging MDs and frees the event queue (waking a dispatcher in PtlEQWait). */
    void close() {
        synchronized (ring) {
            closed = true;
            for (RingBuffer rb : ring) {
                MeHandle me = rb.me;
                if (me != null) {
                    unlinkQuietly(me);
                }
            }
        }
        MeHandle we = wakeMe;
        if (we != null) {
            unlinkQuietly(we);
        }
        MdHandle wm = wakeMd;
        if (wm != null) {
            unlinkQuietly(wm);
        }
        List<Staging> all;
        synchronized (this) {
            all = new ArrayList<>(allStaging);
        }
        for (Staging s : all) {
            unlinkQuietly(s.md);
        }
        for (EqHandle q : new EqHandle[] {eq, sendEq}) {
            try {
                portals.eqFree(q);
            } catch (PortalsException e) {
                // Freed with the interface already.
            }
        }
    }

    boolean closed() {
        return closed;
    }

    /** True once PtlFini or PtlNIFini has ended the interface under this endpoint (LAPI_Term was never called). */
    boolean interfaceGone() {
        try {
            portals.niStatus(ni, StatusRegister.DROP_COUNT);
            return false;
        } catch (PortalsException e) {
            return e.code() == ReturnCode.NOINIT || e.code() == ReturnCode.INV_NI;
        }
    }
}
