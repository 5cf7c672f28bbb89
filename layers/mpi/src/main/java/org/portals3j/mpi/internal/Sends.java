package org.portals3j.mpi.internal;

import static org.portals3j.mpi.internal.RankPortals.COOKIE;
import static org.portals3j.mpi.internal.RankPortals.GET_PORTAL;
import static org.portals3j.mpi.internal.RankPortals.ID_MASK;
import static org.portals3j.mpi.internal.RankPortals.LENGTH_BITS;
import static org.portals3j.mpi.internal.RankPortals.RECEIVE_PORTAL;

import org.checkerframework.checker.initialization.qual.NotOnlyInitialized;
import org.checkerframework.checker.initialization.qual.UnderInitialization;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.transport.Job;

/**
 * The initiator side of a rank's point-to-point engine: starts eager and rendezvous sends (package documentation,
 * "Protocols"), ends them at their SEND_END or GET_END, and takes the credit reports that pay for eager sends.
 */
final class Sends {
    private final RankPortals p;
    /** The engine (which makes this in its constructor, hence under initialization then). */
    private final @NotOnlyInitialized PointToPoint engine;
    private final Portals lib;
    private final Job job;
    private final MpiConfig config;
    private final NiHandle ni;
    private final EqHandle eq;
    private final MdHandle headerMd;
    private final ProcessId[] peers;
    private final RankLock lock;
    /** This rank's room in each receiver's region ({@link EagerCredit}). */
    private final EagerCredit[] credits;
    /** An eager send's MD kept bound for the next send of the same {@link #sendMdValue}, or null. */
    private @Nullable MdHandle sendMd;
    private @Nullable MemoryDescriptor sendMdValue;
    /** Whether a put from {@link #sendMd} is under way (its SEND_END not yet handled). */
    private boolean sendMdBusy;
    private long nextRendezvousId;

    Sends(RankPortals p, @UnderInitialization PointToPoint engine) {
        this.p = p;
        this.engine = engine;
        this.lib = p.lib;
        this.job = p.job;
        this.config = p.config;
        this.ni = p.ni;
        this.eq = p.eq;
        this.headerMd = p.headerMd;
        this.peers = p.peers;
        this.lock = p.lock;
        credits = new EagerCredit[peers.length];
        for (int r = 0; r < credits.length; r++) {
            credits[r] = new EagerCredit(config.creditBytes());
        }
    }

    /** {@link PointToPoint#startSend}. */
    void start(SendOperation op, int dest, long bits, boolean synchronous) {
        lock.lock();
        try {
            p.checkOpen();
            long length = op.buffer.byteSize();
            if (!synchronous && length <= config.eagerLimit()) {
                EagerCredit credit = credits[dest];
                long offset = credit.reserve((int) length);
                if (offset >= 0) {
                    MdHandle md = eagerMd(op.eagerDescriptor(eq));
                    op.md = md;
                    try {
                        lib.put(md, AckRequest.NOACK_REQ, peers[dest], RECEIVE_PORTAL, COOKIE, bits, offset,
                                credit.lastEnd());
                    } catch (PortalsException e) {
                        releaseEager(op);
                        throw e;
                    }
                    p.inFlight++;
                    // its SEND_END is usually logged by now: its wait then costs nothing
                    engine.drainUntilDoneUnlessBlocked(op);
                    return;
                }
            }
            long id = nextRendezvousId++ & ID_MASK;
            MeHandle me = lib.meAttach(ni, GET_PORTAL, peers[dest], id, 0, Unlink.UNLINK, InsertPosition.AFTER);
            try {
                op.rendezvous = true;
                op.md = lib.mdAttach(me, new MemoryDescriptor(op.buffer, length, 1, length,
                        MdOption.OP_GET.bit(), op, eq), Unlink.UNLINK, Unlink.RETAIN);
                lib.put(headerMd, AckRequest.NOACK_REQ, peers[dest], RECEIVE_PORTAL, COOKIE, bits | MatchBits.LONG,
                        0, (id << LENGTH_BITS) | length);
            } catch (PortalsException e) {
                lib.meUnlink(me);
                op.md = null;
                throw e;
            }
            p.inFlight++;
        } catch (PortalsException e) {
            throw p.outOfResources(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The MD to put {@code d} from: the one kept bound for it if that is free, otherwise a new binding, which is kept
     * in its place if the kept one is free (unlinking that one), and unlinked at its SEND_END if not.
     */
    private MdHandle eagerMd(MemoryDescriptor d) {
        MdHandle kept = sendMd;
        if (sendMdBusy) {
            return lib.mdBind(ni, d);
        }
        if (kept != null && sendMdValue == d) {
            sendMdBusy = true;
            return kept;
        }
        MdHandle md = lib.mdBind(ni, d);
        sendMd = md;
        sendMdValue = d;
        sendMdBusy = true;
        if (kept != null) {
            p.unlinkQuietly(kept);
        }
        return md;
    }

    /** An eager send's put has ended (or failed to start): its MD is free again, or unlinked if it is not kept. */
    private void releaseEager(Operation op) {
        MdHandle md = op.md;
        if (md != null && md == sendMd) {
            op.md = null;
            sendMdBusy = false;
        } else {
            p.unbind(op);
        }
    }

    /** A send's SEND_END or GET_END (or their failures): {@code op} completes. Under the lock. */
    void ended(Event e, SendOperation op) {
        if (e.type().isFail()) {
            op.fail(ErrorClass.OTHER, "the send failed: the receiving rank is unreachable or died");
        }
        if (!op.rendezvous) {
            releaseEager(op);
        }
        op.md = null;
        op.complete();
        p.inFlight--;
    }

    /** A credit report's PUT_END: the receiver has freed its region up to the report's {@code hdr_data}. */
    void creditReported(Event e) {
        // the reporting rank is the one the transport says sent it, not what its match bits claim
        int from = job.peers().rankOfNid(e.initiatorNid());
        if (from >= 0) {
            credits[from].freedTo(e.hdrData());
        }
    }
}
