package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.CacheLinePadding;
import org.portals3j.transport.internal.SpinLock;

/**
 * The target side of the protocol (chapter 4's receive algorithm): admits a put, get or PtlGetPut, matches it,
 * names where its data goes, logs its events, and sends the ack or reply it owes.
 */
final class Target implements SendingSide {
    private final LibraryState library;
    // The library's lock, handler check, wake list and other fixed state, held here too: one hop less on the
    // hot paths (bench/README.md, issue 18 put path).
    private final SpinLock lock;
    private final HandlerCalls handlers;
    private final Wakeups wakeups;
    private final int selfNid;
    private final PendingOps ops;
    private final long maxPayload;
    private final MessageSender sender;
    /** One put between its two receive phases per source rank (see {@link IncomingPut}). */
    private final IncomingPut[] incomingPuts;
    /** The ack or reply being sent: the transport serialises header/deposit callbacks, so one suffices. */
    private final MessageHeader response = new MessageHeader();
    private final MemorySegment responseBuffer = response.segment();
    private final MatchList.Cursor cursor = new MatchList.Cursor();
    /** Where the last match accepted, written by whichever thread delivers. */
    private final Accepted accepted = new Accepted();
    // The reply prepared under the lock and sent after it ({@link #sendPreparedReply}); serialised as response is.
    private int replyRank;
    private MemorySegment replyPayload = MemorySegment.NULL;
    private long replyOffset;
    private long replyLength;
    private long replyToken = Transport.NO_NOTIFY;
    private boolean replyStaged;
    private int replyBuffer = SendStaging.NONE;

    /** The offset into the MD and the manipulated length of the last match, on cache lines of their own. */
    static final class Accepted extends CacheLinePadding {
        long offset;
        long length;
        long q0, q1, q2, q3, q4, q5, q6, q7;
    }

    Target(LibraryState library, MessageSender sender) {
        this.library = library;
        this.lock = library.lock;
        this.handlers = library.handlers;
        this.wakeups = library.wakeups;
        this.selfNid = library.self.nid();
        this.ops = library.ops;
        this.maxPayload = library.maxPayload;
        this.sender = sender;
        this.incomingPuts = new IncomingPut[library.job.size()];
        for (int r = 0; r < incomingPuts.length; r++) {
            incomingPuts[r] = new IncomingPut();
        }
    }

    /** PtlNIFini of {@code ni}: the puts it was receiving are forgotten. Under the lock. */
    void forget(NetworkInterfaceState ni) {
        for (IncomingPut p : incomingPuts) {
            if (p.ni == ni) {
                p.clear();
            }
        }
    }

    // ==== phase one: the header (under the lock) =================================================

    /** A put: admitted and matched, PUT_START logged, its payload accepted into the MD. */
    void receivePut(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit) {
        IncomingPut p = incomingPuts[source];
        MemoryDescriptorState md = matchPut(ni, h, p);
        if (md != null) {
            deposit.accept(md.start, p.mlength == 0 ? 0 : p.offset, p.mlength);
            deposit.attach(p);
        }
    }

    /**
     * A get: admitted and matched, GET_START logged, and its reply prepared, to be sent once the lock is released
     * ({@link #sendPreparedReply}).
     *
     * @return whether a reply was prepared
     */
    boolean receiveGet(NetworkInterfaceState ni, MessageHeader h, int source) {
        PendingOp op = ops.allocate(PendingOp.Kind.GET_REPLY);
        MemoryDescriptorState md = matchRequest(ni, h, op, source);
        if (md == null) {
            ops.release(op);
            return false;
        }
        response.begin(MessageType.REPLY, ni.index).initiator(selfNid, ni.pid).user(ni.uid)
                .target(h.initiatorNid(), h.initiatorPid()).portal(h.portal()).matchBits(h.matchBits())
                .offset(h.offset()).mdHandle(h.mdHandle()).length(h.length())
                .manipulatedLength(op.mlength).exchange(h.exchange());
        boolean staged = sender.stage(op, op.mlength, source);
        prepareReply(source, md.start, op.mlength == 0 ? 0 : op.offset, op.mlength, op.token, staged, op.staging);
        return true;
    }

    /**
     * A {@code PtlGetPut} request (Portals 3.3 only: a 3.2 library does not know it and counts it malformed):
     * matched as {@link #matchRequest} says; its bytes go to the op's own buffer, and are swapped into the MD
     * once they are all in ({@link #swapDeposited}).
     */
    void receiveGetPut(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit) {
        if (library.dialect != Dialect.PORTALS_3_3) {
            ni.drop(StatusRegister.DROP_MALFORMED);
            return;
        }
        PendingOp op = ops.allocate(PendingOp.Kind.GETPUT_REPLY);
        MemoryDescriptorState md = matchRequest(ni, h, op, source);
        if (md == null) {
            ops.release(op);
            return;
        }
        op.localOffset = h.offset(); // the reply echoes the request's offset, as a get's does
        op.localLength = h.length();
        op.peerMdHandle = h.mdHandle();
        op.peerExchange = h.exchange();
        deposit.accept(op.swapIn(), 0L, h.length());
        deposit.attach(op);
    }

    // ==== the receive algorithm (Portals 3.2 spec §4.2) =================================================

    /** Portal index and access control checks for a put or get (Portals 3.2 spec §4.2, A-29). */
    private static boolean admit(NetworkInterfaceState ni, MessageHeader rx) {
        int portal = rx.portal();
        if (portal < 0 || portal >= ni.portals.length) {
            ni.drop(StatusRegister.DROP_INV_PORTAL);
            return false;
        }
        int cookie = rx.cookie();
        if (cookie < 0 || cookie >= ni.acl.length
                || !ni.acl[cookie].allows(rx.initiatorNid(), rx.initiatorPid(), rx.user(), ni.jid, portal)) {
            ni.drop(StatusRegister.DROP_ACL);
            return false;
        }
        return true;
    }

    /**
     * The walk of Portals 3.2 spec §4.2: the first entry, in list order, whose criteria match and whose MD has every
     * option of {@code required} and accepts. On acceptance the threshold, local offset and pending count are updated
     * here, atomically with the match (Portals 3.2 spec §2.4), and {@link #accepted} says where.
     */
    private @Nullable MemoryDescriptorState match(NetworkInterfaceState ni, int required, MessageHeader rx) {
        int nid = rx.initiatorNid();
        int initPid = rx.initiatorPid();
        long bits = rx.matchBits();
        long rlength = rx.length();
        MatchList.Cursor c = cursor;
        c.start(ni.portals[rx.portal()], bits);
        for (MatchEntryState me = c.next(); me != null; me = c.next()) {
            if (!me.matchesId(nid, initPid) || !me.matchesBits(bits)) {
                continue;
            }
            MemoryDescriptorState md = me.md;
            if (md == null || (md.options & required) != required || md.inactive()) {
                continue; // no MD, op not enabled (Portals 3.2 spec §4.2), threshold 0 or past max_offset (§3.8.1.1)
            }
            long off = md.has(MdOption.MANAGE_REMOTE) ? rx.offset() : md.localOffset;
            long avail = off >= md.length ? 0 : md.length - off;
            if ((md.options & MdOption.MAX_SIZE.bit()) != 0 && avail > md.maxSize) {
                // 3.3 §3.10.1: max_size is "the largest incoming request that the memory descriptor should
                // respond to" (the 3.3 text as LNet's lnet_md_t keeps it, and as LNet implements it); a
                // longer request is truncated to it with PTL_MD_TRUNCATE, else it does not fit.
                avail = md.maxSize;
            }
            long mlength;
            if (rlength <= avail) {
                mlength = rlength;
            } else if (md.has(MdOption.TRUNCATE)) {
                mlength = avail; // Portals 3.2 spec §3.8.1.1
            } else {
                if (md.unlinkNofit == Unlink.UNLINK) {
                    // Portals 3.2 spec §3.8.2.2, A-25: unlinked; the request goes on down the list. No event caused it.
                    ni.unlinkMd(md, true, 0L, nid, initPid, rx.user(), rx.portal(), bits, rlength, 0L, off);
                }
                continue;
            }
            if ((required & MdOption.OP_PUT.bit()) == 0 && mlength > maxPayload) {
                // A get for more than one message carries (only a peer that ignores the limit asks for it):
                // the reply is truncated to what the transport carries, so that the get is still answered.
                mlength = maxPayload;
            }
            if (md.threshold > 0) {
                md.threshold--; // Portals 3.2 spec §3.8.1.1; PTL_MD_THRESH_INF is negative and never changes
            }
            if (!md.has(MdOption.MANAGE_REMOTE)) {
                md.localOffset = off + mlength; // by the manipulated length
            }
            md.pending++;
            accepted.offset = off;
            accepted.length = mlength;
            return md;
        }
        return null;
    }

    /**
     * Phase one of a put: admit, match, post PUT_START, and fill {@code p} for the deposit.
     *
     * @return the MD the put landed in, or null if it was dropped (counted)
     */
    private @Nullable MemoryDescriptorState matchPut(NetworkInterfaceState ni, MessageHeader rx, IncomingPut p) {
        if (!admit(ni, rx)) {
            return null;
        }
        MemoryDescriptorState md = match(ni, MdOption.OP_PUT.bit(), rx);
        if (md == null) {
            ni.drop(StatusRegister.DROP_NO_MATCH);
            return null;
        }
        ni.registers[StatusRegister.PUTS_RECEIVED.index()]++;
        p.ni = ni;
        p.incarnation = ni.incarnation;
        p.md = md;
        p.initiatorNid = rx.initiatorNid();
        p.initiatorPid = rx.initiatorPid();
        p.uid = rx.user();
        p.portal = rx.portal();
        p.matchBits = rx.matchBits();
        p.rlength = rx.length();
        p.mlength = accepted.length;
        p.offset = accepted.offset;
        p.requestOffset = rx.offset();
        p.hdrData = rx.hdrData();
        p.ackMd = rx.mdHandle();
        p.exchange = rx.exchange();
        p.link = ni.post(md, EventKind.PUT_START, NetworkInterfaceState.SELF_LINK, p.initiatorNid, p.initiatorPid,
                p.uid, p.portal, p.matchBits, p.rlength, p.mlength, p.offset, p.hdrData, NiFailType.OK);
        return md;
    }

    /**
     * Phase one of a request that {@code op} answers, a get ({@code GET_REPLY}) or a Portals 3.3 {@code PtlGetPut}
     * ({@code GETPUT_REPLY}): admit, match, post GET_START or GETPUT_START. A {@code PtlGetPut} matches an MD that
     * allows both puts and gets (the reference implementation's {@code lib_find_md}, {@code PTL_MSG_GETPUT}),
     * chosen and advanced as for a put, and its events carry the request's {@code hdr_data}. The reply is sent
     * once the lock is released, for a {@code PtlGetPut} once its bytes are in and swapped; GET_END or
     * GETPUT_END follows when it has been sent (Portals 3.2 spec §3.9.1).
     *
     * @return the MD, or null if the request was dropped (counted)
     */
    private @Nullable MemoryDescriptorState matchRequest(NetworkInterfaceState ni, MessageHeader rx, PendingOp op,
                                                         int source) {
        boolean get = op.kind == PendingOp.Kind.GET_REPLY;
        if (!admit(ni, rx)) {
            return null;
        }
        int required = get ? MdOption.OP_GET.bit() : MdOption.OP_PUT.bit() | MdOption.OP_GET.bit();
        MemoryDescriptorState md = match(ni, required, rx);
        if (md == null) {
            ni.drop(StatusRegister.DROP_NO_MATCH);
            return null;
        }
        if (get) {
            ni.registers[StatusRegister.GETS_RECEIVED.index()]++;
        }
        op.ni = ni;
        op.md = md;
        op.peerRank = source;
        op.peerNid = rx.initiatorNid();
        op.peerPid = rx.initiatorPid();
        op.uid = rx.user();
        op.portal = rx.portal();
        op.matchBits = rx.matchBits();
        op.rlength = rx.length();
        op.mlength = accepted.length;
        op.offset = accepted.offset;
        op.hdrData = get ? 0L : rx.hdrData();
        op.link = ni.post(md, get ? EventKind.GET_START : EventKind.GETPUT_START, NetworkInterfaceState.SELF_LINK,
                op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength, op.mlength, op.offset, op.hdrData,
                NiFailType.OK);
        if (get) {
            ni.registers[StatusRegister.BYTES_SENT.index()] += accepted.length;
        }
        return md;
    }

    // ==== phase two: the deposit ================================================================

    /**
     * The end of a put whose data is in place. A put that asks for an ack is completed in two holds of the
     * lock, the ack handed to the transport between them: PUT_END becomes visible (to a waiter, a poller, a
     * handler) only after the ack has left, so an answer the target sends on PUT_END travels behind the ack on
     * the same ordered channel and never reaches the initiator first. The lock is not held while sending
     * ({@link Transport}: a transport may deliver inline, and an ack to this process comes back into this
     * engine). Takes the lock itself.
     */
    void putDeposited(int source, IncomingPut p, Deposit deposit) {
        boolean ack = false;
        LibraryState.acquire(handlers, lock);
        try {
            ack = prepareAck(p, deposit);
            if (!ack) {
                completePut(p, deposit);
            }
        } finally {
            if (ack) {
                lock.unlock(); // nothing new to see yet: the wakes queued so far wait for the PUT_END
            } else {
                LibraryState.release(wakeups, lock);
            }
        }
        if (ack) {
            try {
                sender.send(source, responseBuffer, MemorySegment.NULL, 0L, 0L, Transport.NO_NOTIFY, this);
            } finally {
                LibraryState.acquire(handlers, lock);
                try {
                    completePut(p, deposit);
                } finally {
                    LibraryState.release(wakeups, lock);
                }
            }
        }
    }

    /**
     * Whether the put that {@code p} describes gets an ack (asked for and allowed, Portals 3.2 spec §3.11.1.2; not for
     * a failed deposit): if so, the ack is written into {@link #response}, ready to be sent.
     */
    private boolean prepareAck(IncomingPut p, Deposit deposit) {
        NetworkInterfaceState ni = p.ni;
        MemoryDescriptorState md = p.md;
        if (ni == null || md == null || !ni.isLive() || ni.incarnation != p.incarnation || deposit.failed()
                || p.ackMd == 0L || md.has(MdOption.ACK_DISABLE)) {
            return false;
        }
        response.begin(MessageType.ACK, ni.index).initiator(selfNid, ni.pid).user(ni.uid)
                .target(p.initiatorNid, p.initiatorPid).portal(p.portal).matchBits(p.matchBits).offset(p.requestOffset)
                .mdHandle(p.ackMd).length(p.rlength).manipulatedLength(p.mlength).exchange(p.exchange);
        return true;
    }

    /** PUT_END or PUT_FAIL, and the automatic unlink (Portals 3.2 spec §3.8.2.2). */
    private void completePut(IncomingPut p, Deposit deposit) {
        NetworkInterfaceState ni = p.ni;
        MemoryDescriptorState md = p.md;
        p.clear();
        if (ni == null || md == null || !ni.isLive() || ni.incarnation != p.incarnation) {
            return; // the interface was finalised meanwhile: undefined by the spec (Portals 3.2 spec §3.4.2)
        }
        boolean failed = deposit.failed();
        long mlength = failed ? deposit.deposited() : p.mlength;
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long end = ni.post(md, failed ? EventKind.PUT_FAIL : EventKind.PUT_END, p.link, p.initiatorNid, p.initiatorPid,
                p.uid, p.portal, p.matchBits, p.rlength, mlength, p.offset, p.hdrData,
                failed ? NiFailType.MEMORY_FAULT : NiFailType.OK);
        ni.releasePending(md);
        if (!failed) {
            ni.autoUnlinkIfInactive(md, end, p.initiatorNid, p.initiatorPid, p.uid, p.portal, p.matchBits, p.rlength,
                    mlength, p.offset);
        }
    }

    /**
     * The swap of a {@code PtlGetPut} at its target, once its bytes are in: under the engine lock, so atomic with
     * respect to every other {@code PtlGetPut} on this process (the reference implementation swaps in
     * {@code lib_finalize}; neither is atomic with respect to a put into the same bytes or the program's own
     * stores). The MD's {@code mlength} bytes at the matched offset go to the reply, the request's first
     * {@code mlength} bytes take their place, and the reply is prepared, to be sent once the lock is released
     * ({@link #sendPreparedReply}).
     *
     * @return whether a reply was prepared: not when the interface went away, or the transfer failed (GETPUT_END
     *         then reports it; the initiator learns of the failure from its transport, as for a get)
     */
    boolean swapDeposited(int source, PendingOp op, Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        MemorySegment in = op.swapIn;
        MemorySegment out = op.swapOut;
        if (!op.inUse || ni == null || md == null || in == null || out == null || !ni.isLive()) {
            return false;
        }
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long n = op.mlength;
        boolean readable = !deposit.failed() && md.start.scope().isAlive();
        if (!readable) {
            ni.post(md, EventKind.GETPUT_END, op.link, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits,
                    op.rlength, 0L, op.offset, op.hdrData,
                    deposit.failed() ? library.failReason(op) : NiFailType.MEMORY_FAULT);
            ni.releasePending(md);
            ops.release(op);
            return false;
        }
        if (n > 0) {
            MemorySegment.copy(md.start, op.offset, out, 0L, n);
            MemorySegment.copy(in, 0L, md.start, op.offset, n);
        }
        ni.registers[StatusRegister.BYTES_SENT.index()] += n;
        response.begin(MessageType.REPLY, ni.index).initiator(selfNid, ni.pid).user(ni.uid)
                .target(op.peerNid, op.peerPid).portal(op.portal).matchBits(op.matchBits).offset(op.localOffset)
                .mdHandle(op.peerMdHandle).length(op.localLength).manipulatedLength(n).exchange(op.peerExchange);
        prepareReply(source, out, 0L, n, op.token, false, SendStaging.NONE);
        return true;
    }

    // ==== the reply ==============================================================================

    private void prepareReply(int rank, MemorySegment payload, long offset, long length, long token, boolean staged,
                              int buffer) {
        replyRank = rank;
        replyPayload = payload;
        replyOffset = offset;
        replyLength = length;
        replyToken = token;
        replyStaged = staged;
        replyBuffer = buffer;
    }

    /** Sends the reply {@link #receiveGet} or {@link #swapDeposited} prepared; after the lock is released. */
    void sendPreparedReply() {
        MemorySegment payload = replyPayload;
        replyPayload = MemorySegment.NULL; // do not keep the MD's memory reachable
        if (replyStaged) {
            sender.sendStaged(replyRank, responseBuffer, payload, replyOffset, replyLength, replyToken, replyBuffer,
                    this);
        } else {
            sender.send(replyRank, responseBuffer, payload, replyOffset, replyLength, replyToken, this);
        }
    }

    /**
     * The transport's report of the reply to a get or a {@code PtlGetPut} this process answered: its END event
     * ({@link #endReplySend}) unless the reply was staged and GET_END logged already (then a reply not delivered is
     * counted, as a put's send is). Frees the op. Under the lock.
     */
    void replySent(PendingOp op, boolean delivered) {
        if (op.sendEnded) {
            op.countLost(delivered);
        } else {
            endReplySend(op, delivered);
        }
        ops.release(op);
    }

    /**
     * GET_END (GET_FAIL if not {@code delivered}) of a get, or GETPUT_END of a {@code PtlGetPut}, once the reply has
     * been sent (Portals 3.2 spec §3.9.1, A-48), and the automatic unlink.
     */
    private void endReplySend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            return;
        }
        EventKind kind = op.kind == PendingOp.Kind.GETPUT_REPLY ? EventKind.GETPUT_END
                : delivered ? EventKind.GET_END : EventKind.GET_FAIL;
        long end = ni.post(md, kind, op.link, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                op.mlength, op.offset, op.hdrData, delivered ? NiFailType.OK : library.failReason(op));
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, end, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /** A staged reply's payload has left the MD: GET_END now; the transport's report then only frees the op. */
    @Override
    public void stagedPayloadCopied(long token) {
        LibraryState.acquire(handlers, lock);
        try {
            PendingOp op = ops.lookup(token);
            if (op == null || op.ni == null || op.md == null) {
                return; // the interface was finalised meanwhile
            }
            endReplySend(op, true);
            op.sendEnded = true;
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    @Override
    public void sendRefused(long token) {
        LibraryState.acquire(handlers, lock);
        try {
            PendingOp op = library.opToComplete(token);
            if (op != null) {
                replySent(op, false);
            }
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }
}
