package org.portals3j.mpi.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;

/**
 * The Portals 3.2 objects of one rank's point-to-point engine, made once (package documentation, "Portals set-up of
 * a rank"), and the state its send and receive sides share, guarded by {@link #lock}.
 */
final class RankPortals {
    /** The portal every message is put to: posted receives, the mark, then the unexpected entries. */
    static final int RECEIVE_PORTAL = 4;
    /** The portal where rendezvous senders expose their buffers for the receiver's get. */
    static final int GET_PORTAL = 5;
    /** The portal credit reports arrive on. */
    static final int CREDIT_PORTAL = 6;
    /** The portal a rank puts 0 bytes to itself on, to wake its thread blocked in {@code PtlEQWait}. */
    static final int WAKE_PORTAL = 7;
    /** Access control entry 0: same user, any portal (the default). */
    static final int COOKIE = 0;
    /** A rendezvous header's hdr_data: the message length in the low bits, the get's id above. */
    static final int LENGTH_BITS = 36;
    static final long LENGTH_MASK = (1L << LENGTH_BITS) - 1;
    static final long ID_MASK = (1L << (64 - LENGTH_BITS)) - 1;
    /** The event queue takes every event of the rank; its memory grows only with its backlog. */
    static final long EQ_SIZE = 1L << 24;
    /** The user pointer of the rendezvous headers' MD. */
    static final Object HEADER_SINK = new Object();
    /** The user pointer of the credit reports' MD. */
    static final Object CREDIT_SINK = new Object();
    private static final Object WAKE_SINK = new Object();
    /** As many match entries and MDs as an interface can have: one per posted receive and message under way. */
    static final NiLimits LIMITS = new NiLimits(NiLimits.MAXIMUM.maxMatchEntries(),
            NiLimits.MAXIMUM.maxMemDescriptors(), NiLimits.DEFAULT.maxEventQueues(), NiLimits.DEFAULT.maxAtableIndex(),
            NiLimits.DEFAULT.maxPtableIndex());

    /** The user pointer of a sender's credit region: eager messages from rank {@code peer} land in {@code memory}. */
    record Region(int peer, MemorySegment memory) {
    }

    final Portals lib;
    final Job job;
    final int rank;
    final MpiConfig config;
    final NiHandle ni;
    final EqHandle eq;
    /** The entry posted receives are inserted before. */
    final MeHandle mark;
    /** An MD of no memory for the 0-byte rendezvous headers. */
    final MdHandle headerMd;
    /** An MD of no memory for the 0-byte credit reports (and the rank's wake-up puts to itself). */
    final MdHandle creditMd;
    /** Each rank of the job as a Portals process. */
    final ProcessId[] peers;
    /** Each sender's credit region at this rank. */
    final Region[] regions;
    final RankLock lock = new RankLock();
    private final Arena arena = Arena.ofShared();
    /** Sends and receives whose events are still to come: {@link PointToPoint#finish} waits until none is. */
    int inFlight;
    /** Whether the library has been released. */
    boolean finished;

    /** Sets up rank {@code rank}'s interface, event queue and match lists on {@code lib} (created, not initialised). */
    RankPortals(Portals lib, int rank, MpiConfig config) {
        this.lib = lib;
        this.job = lib.job();
        this.rank = rank;
        this.config = config;
        int size = job.size();
        lib.init();
        ni = lib.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, LIMITS).handle();
        eq = lib.eqAlloc(ni, EQ_SIZE);
        peers = new ProcessId[size];
        regions = new Region[size];
        for (int r = 0; r < size; r++) {
            JobMember m = job.peers().member(r);
            peers[r] = new ProcessId(m.nid(), m.pid());
        }
        // the mark: an entry without an MD, which nothing matches (skipped, Portals 3.2 spec §2.2)
        mark = lib.meAttach(ni, RECEIVE_PORTAL, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
        int regionOptions = MdOption.bits(MdOption.OP_PUT, MdOption.MANAGE_REMOTE, MdOption.ACK_DISABLE);
        for (int r = 0; r < size; r++) {
            MemorySegment memory = arena.allocate(config.creditBytes(), 8);
            regions[r] = new Region(r, memory);
            MeHandle me = lib.meAttach(ni, RECEIVE_PORTAL, peers[r], 0, ~MatchBits.LONG, Unlink.RETAIN,
                    InsertPosition.AFTER);
            lib.mdAttach(me, new MemoryDescriptor(memory, memory.byteSize(), MemoryDescriptor.THRESH_INF,
                    memory.byteSize(), regionOptions, regions[r], eq), Unlink.RETAIN, Unlink.RETAIN);
        }
        int sinkOptions = MdOption.bits(MdOption.OP_PUT, MdOption.TRUNCATE, MdOption.ACK_DISABLE);
        MeHandle headers = lib.meAttach(ni, RECEIVE_PORTAL, ProcessId.ANY, MatchBits.LONG, ~MatchBits.LONG,
                Unlink.RETAIN, InsertPosition.AFTER);
        lib.mdAttach(headers, new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0,
                sinkOptions, HEADER_SINK, eq), Unlink.RETAIN, Unlink.RETAIN);
        MeHandle creditMe = lib.meAttach(ni, CREDIT_PORTAL, ProcessId.ANY, 0, ~0L, Unlink.RETAIN,
                InsertPosition.AFTER);
        lib.mdAttach(creditMe, new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0,
                sinkOptions, CREDIT_SINK, eq), Unlink.RETAIN, Unlink.RETAIN);
        // only this rank may wake itself: a put from any other process does not match and is dropped
        MeHandle wakeMe = lib.meAttach(ni, WAKE_PORTAL, peers[rank], 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
        lib.mdAttach(wakeMe, new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0,
                sinkOptions, WAKE_SINK, eq), Unlink.RETAIN, Unlink.RETAIN);
        MemoryDescriptor empty = new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0, 0,
                null, EqHandle.NONE);
        headerMd = lib.mdBind(ni, empty);
        creditMd = lib.mdBind(ni, empty);
    }

    /** Releases the library and the regions (locked, with nothing in flight). */
    void release() {
        finished = true;
        lib.fini();
        arena.close();
    }

    /** Fails with {@code ERR_OTHER} once the rank has finished. Under the lock. */
    void checkOpen() {
        if (finished) {
            throw new MpiError(ErrorClass.OTHER, "MPI is finalized on this rank");
        }
    }

    /** A Portals call that failed for want of resources (too many operations under way), as an MPI error. */
    MpiError outOfResources(PortalsException e) {
        return new MpiError(ErrorClass.NO_MEM, "rank " + rank + " cannot start the operation: " + e.getMessage()
                + " (too many receives or messages under way?)");
    }

    /** Unlinks {@code op}'s MD, if it has one, and forgets it. */
    void unbind(Operation op) {
        MdHandle md = op.md;
        op.md = null;
        if (md != null) {
            unlinkQuietly(md);
        }
    }

    /** Unlinks {@code md}, which may be gone with the interface already. */
    void unlinkQuietly(MdHandle md) {
        try {
            lib.mdUnlink(md);
        } catch (PortalsException e) {
            // already gone with the interface
        }
    }
}
