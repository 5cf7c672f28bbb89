package org.portals3j.mpi.internal;

import static org.portals3j.mpi.internal.RankPortals.COOKIE;
import static org.portals3j.mpi.internal.RankPortals.CREDIT_PORTAL;
import static org.portals3j.mpi.internal.RankPortals.GET_PORTAL;
import static org.portals3j.mpi.internal.RankPortals.LENGTH_BITS;
import static org.portals3j.mpi.internal.RankPortals.LENGTH_MASK;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.transport.Job;

/**
 * The target side of a message at a rank: queues what lands on the unexpected entries, delivers a message into the
 * receive that matched it (copy out of the region, rendezvous get, truncation) and frees and reports eager credit.
 */
final class Arrivals {
    private final RankPortals p;
    private final Portals lib;
    private final Job job;
    private final int rank;
    private final NiHandle ni;
    private final EqHandle eq;
    private final MdHandle creditMd;
    private final ProcessId[] peers;
    private final RankPortals.Region[] regions;
    /** Each sender's eager messages at this rank, in arrival order ({@link CreditLedger}). */
    private final CreditLedger[] ledgers;
    /** The messages announced on the unexpected entries that no receive has taken yet, in arrival order. */
    final UnexpectedQueue unexpected = new UnexpectedQueue();

    Arrivals(RankPortals p) {
        this.p = p;
        this.lib = p.lib;
        this.job = p.job;
        this.rank = p.rank;
        this.ni = p.ni;
        this.eq = p.eq;
        this.creditMd = p.creditMd;
        this.peers = p.peers;
        this.regions = p.regions;
        ledgers = new CreditLedger[peers.length];
        for (int r = 0; r < ledgers.length; r++) {
            ledgers[r] = new CreditLedger(p.config.creditBytes());
        }
    }

    /** The PUT_START of an eager message in {@code peer}'s region: queued unexpected. Under the lock. */
    UnexpectedMessage arrivedEager(Event e, int peer) {
        UnexpectedMessage m = unexpected.append();
        m.bits = e.matchBits();
        m.length = e.mlength();
        m.offsetOrId = e.offset();
        m.peer = peer;
        m.link = e.link();
        m.ledgerEntry = ledgers[peer].arrived(e.hdrData(), false);
        return m;
    }

    /** The PUT_START of a rendezvous header: queued unexpected; null if its initiator is no rank of the job. */
    @Nullable UnexpectedMessage arrivedHeader(Event e) {
        int peer = job.peers().rankOfNid(e.initiatorNid());
        if (peer < 0) {
            return null;
        }
        UnexpectedMessage m = unexpected.append();
        m.bits = e.matchBits();
        m.length = e.hdrData() & LENGTH_MASK;
        m.offsetOrId = e.hdrData() >>> LENGTH_BITS;
        m.peer = peer;
        m.link = e.link();
        m.ledgerEntry = -1;
        return m;
    }

    /**
     * The PUT_END (or PUT_FAIL) of a message on the unexpected entries: it has arrived, and the receive waiting for
     * its data, if one took it meanwhile, gets it. Under the lock.
     */
    void landed(Event e, boolean failed) {
        UnexpectedMessage m = unexpected.findByLink(e.link());
        if (m == null) {
            return;
        }
        m.arrived = true;
        m.failed = failed;
        ReceiveOperation waiter = m.waiter;
        if (waiter != null) {
            m.waiter = null;
            p.inFlight--;
            take(m, waiter);
        }
    }

    /** The PUT_START of an eager message a posted receive's entry took: its slots in the region are free at once. */
    void depositStarted(Event e) {
        int peer = job.peers().rankOfNid(e.initiatorNid());
        if (peer >= 0) {
            ledgers[peer].arrived(e.hdrData(), true);
            reportCredit(peer);
        }
    }

    /**
     * The PUT_END (or PUT_FAIL) of a message a posted receive's entry took: {@code op} completes with it, or, for a
     * rendezvous header, gets its body. Under the lock.
     */
    void deposited(Event e, ReceiveOperation op, boolean failed) {
        long bits = e.matchBits();
        int peer = job.peers().rankOfNid(e.initiatorNid());
        if (failed || peer < 0) {
            op.fail(ErrorClass.OTHER, "the message failed to arrive");
            op.finish(bits, 0, 0);
        } else if (MatchBits.isLong(bits)) {
            fetch(op, peer, e.hdrData() >>> LENGTH_BITS, e.hdrData() & LENGTH_MASK, bits);
        } else {
            op.finish(bits, e.mlength(), e.rlength());
        }
    }

    /** Receives the matched unexpected message {@code m} into {@code op}. Under the lock. */
    void take(UnexpectedMessage m, ReceiveOperation op) {
        if (m.failed) {
            op.fail(ErrorClass.OTHER, "the message failed to arrive (its sender failed or was lost)");
            op.finish(m.bits, 0, 0);
            consumeEager(m);
            unexpected.remove(m);
        } else if (m.isLong()) {
            fetch(op, m.peer, m.offsetOrId, m.length, m.bits);
            unexpected.remove(m);
        } else if (m.arrived) {
            copyOut(m, op);
        } else {
            m.waiter = op;
            op.state = ReceiveOperation.State.AWAITING_DATA;
            p.inFlight++;
        }
    }

    /** Copies the arrived eager message {@code m} into {@code op}, which completes, and frees its space. */
    private void copyOut(UnexpectedMessage m, ReceiveOperation op) {
        long n = Math.min(m.length, op.buffer.byteSize());
        MemorySegment.copy(regions[m.peer].memory(), m.offsetOrId, op.buffer, 0, n);
        op.finish(m.bits, n, m.length);
        consumeEager(m);
        unexpected.remove(m);
    }

    private void consumeEager(UnexpectedMessage m) {
        if (!m.isLong() && m.ledgerEntry >= 0) {
            ledgers[m.peer].consumed(m.ledgerEntry);
            reportCredit(m.peer);
        }
    }

    /** Reads the body of a rendezvous message ({@code length} bytes, id {@code id}) from {@code peer}. */
    private void fetch(ReceiveOperation op, int peer, long id, long length, long bits) {
        long n = Math.min(length, op.buffer.byteSize());
        op.messageLength = length;
        op.bits = bits;
        op.state = ReceiveOperation.State.FETCHING;
        p.inFlight++;
        try {
            MdHandle md = lib.mdBind(ni, new MemoryDescriptor(op.buffer, n, 1, n, 0, op, eq));
            op.md = md;
            lib.get(md, peers[peer], GET_PORTAL, COOKIE, id, 0);
        } catch (PortalsException e) {
            p.unbind(op);
            op.fail(ErrorClass.NO_MEM, p.outOfResources(e).getMessage() + "; the message from rank " + peer
                    + " is lost");
            op.finish(bits, 0, length);
            p.inFlight--;
        }
    }

    /** The REPLY_END (or REPLY_FAIL) of a rendezvous body's get: {@code op} completes. Under the lock. */
    void bodyRead(Event e, ReceiveOperation op) {
        p.unbind(op);
        if (e.type().isFail()) {
            op.fail(ErrorClass.OTHER, "reading the message from its sender failed");
        }
        op.finish(op.bits, e.type().isFail() ? 0 : e.mlength(), op.messageLength);
        p.inFlight--;
    }

    private void reportCredit(int peer) {
        CreditLedger ledger = ledgers[peer];
        if (ledger.reportDue()) {
            lib.put(creditMd, AckRequest.NOACK_REQ, peers[peer], CREDIT_PORTAL, COOKIE, rank, 0, ledger.report());
        }
    }
}
