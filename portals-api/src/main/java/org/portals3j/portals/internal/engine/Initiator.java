package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.internal.SpinLock;

/**
 * The initiator side of the protocol: PtlPut, PtlGet and PtlGetPut send their requests, and their acks,
 * replies and send completions end them with their events.
 */
final class Initiator implements SendingSide {
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
    /** Per target rank: the order requests go in (see {@link SendChannel}). */
    private final SendChannel[] channels;
    private final NetworkInterfaceState[] nis;
    private final int libraryId;

    Initiator(LibraryState library, MessageSender sender) {
        this.library = library;
        this.lock = library.lock;
        this.handlers = library.handlers;
        this.wakeups = library.wakeups;
        this.selfNid = library.self.nid();
        this.ops = library.ops;
        this.maxPayload = library.maxPayload;
        this.sender = sender;
        this.nis = library.nis;
        this.libraryId = library.libraryId;
        this.channels = new SendChannel[library.job.size()];
        for (int r = 0; r < channels.length; r++) {
            channels[r] = new SendChannel();
        }
    }

    // ==== sending ================================================================================

    /**
     * PtlPut (Portals 3.2 spec §3.11.1): sends the whole MD. Takes one unit of the MD's threshold now; an MD
     * whose threshold is 0 is PTL_INV_MD; the ack takes none (A-27; in 3.3 it takes one when it arrives, see
     * {@link #acceptAck}). An ack is asked for (a handle other than PTL_MD_NONE on
     * the wire) only with PTL_ACK_REQ and an event queue on the MD (Portals 3.2 spec §3.11.1.2, A-30).
     */
    void put(long mdHandle, AckRequest ack, ProcessId target, int portal, int cookie, long matchBits,
             long offset, long hdrData) {
        put(mdHandle, false, 0L, 0L, ack, target, portal, cookie, matchBits, offset, hdrData);
    }

    /**
     * Portals 3.3 PtlPutRegion (3.3 &sect;3.13.3): as {@link #put}, but sends only the {@code length} bytes
     * at {@code localOffset} of the MD. A region outside the MD is PTL_ILL_MD (reference implementation,
     * {@code p3lib/move.c lib_PtlPut}: "P3.3 API spec, section 3.13.3"), checked after the MD itself
     * (PTL_INV_MD). The SEND events report {@code length} as rlength and mlength.
     */
    void putRegion(long mdHandle, long localOffset, long length, AckRequest ack, ProcessId target, int portal,
                   int cookie, long matchBits, long remoteOffset, long hdrData) {
        put(mdHandle, true, localOffset, length, ack, target, portal, cookie, matchBits, remoteOffset, hdrData);
    }

    private void put(long mdHandle, boolean region, long localOffset, long regionLength, AckRequest ack,
                     ProcessId target, int portal, int cookie, long matchBits, long offset, long hdrData) {
        LibraryState lib = library;
        LibraryState.refuseInHandlerThread(handlers);
        lib.requireInit();
        NetworkInterfaceState niGuess = LibraryState.niOf(nis, libraryId, mdHandle, HandleCodec.KIND_MD,
                ReturnCode.INV_MD);
        int rank = lib.requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        MemorySegment payload;
        long from;
        long length;
        long token;
        boolean staged;
        int buffer;
        long ackHandle;
        int iface;
        int pid;
        int uid;
        long turn;
        LibraryState.acquire(handlers, lock);
        try {
            lib.requireInit();
            MemoryDescriptorState md = activeMd(niGuess, mdHandle);
            if (region) {
                requireRegion(md, localOffset, regionLength);
            }
            from = region ? localOffset : 0L;
            length = region ? regionLength : md.length;
            requireCarried(length, region, "PtlPut");
            NetworkInterfaceState ni = niGuess;
            PendingOp op = begin(ni, md, PendingOp.Kind.PUT_SEND, rank, target, portal, matchBits, offset, length);
            op.hdrData = hdrData;
            op.link = ni.post(md, EventKind.SEND_START, NetworkInterfaceState.SELF_LINK, selfNid, ni.pid,
                    ni.uid, portal, matchBits, length, length, offset, hdrData, NiFailType.OK);
            ackHandle = ack == AckRequest.ACK_REQ && md.eventQueue() != null ? md.handle : 0L;
            ni.putBytes.value += length;
            iface = ni.index;
            pid = ni.pid;
            uid = ni.uid;
            payload = md.start;
            token = op.token;
            staged = sender.stage(op, length, rank);
            buffer = op.staging;
            turn = channel.issued++; // last: nothing after it can throw and leave the turn unused
        } finally {
            LibraryState.release(wakeups, lock);
        }
        channel.awaitTurn(turn);
        try {
            channel.header.begin(MessageType.PUT, iface).initiator(selfNid, pid).user(uid)
                    .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                    .offset(offset).mdHandle(ackHandle).length(length).hdrData(hdrData).exchange(token);
            if (staged) {
                sender.sendStaged(rank, channel.buffer, payload, from, length, token, buffer, this);
            } else {
                sender.send(rank, channel.buffer, payload, from, length, token, this);
            }
        } finally {
            channel.pass(turn);
        }
    }

    /**
     * PtlGet (Portals 3.2 spec §3.11.2): asks for the MD's length (Portals 3.2 spec §4.1); the reply lands at offset 0
     * of the MD, truncated to fit. Takes one unit of threshold now; the reply takes none. The MD is
     * pending (and cannot be unlinked) until the reply arrives (Portals 3.2 spec §4.1).
     */
    void get(long mdHandle, ProcessId target, int portal, int cookie, long matchBits, long offset) {
        get(mdHandle, false, 0L, 0L, target, portal, cookie, matchBits, offset);
    }

    /**
     * Portals 3.3 PtlGetRegion (3.3 &sect;3.13.5): as {@link #get}, but asks for {@code length} bytes, which
     * land at {@code localOffset} of the MD (the reference implementation sends {@code local_offset} as
     * the reply's destination offset, {@code rtn_offset}). A region outside the MD is PTL_ILL_MD.
     *
     * <p>The unit of threshold is taken when the get is issued, as in 3.2, not when the reply arrives as
     * in the reference implementation: the count is the same (one per get), and a get already issued can
     * never find its MD inactive and its reply refused, which would leave it pending for ever.
     */
    void getRegion(long mdHandle, long localOffset, long length, ProcessId target, int portal, int cookie,
                   long matchBits, long remoteOffset) {
        get(mdHandle, true, localOffset, length, target, portal, cookie, matchBits, remoteOffset);
    }

    private void get(long mdHandle, boolean region, long localOffset, long regionLength, ProcessId target, int portal,
                     int cookie, long matchBits, long offset) {
        LibraryState.refuseInHandlerThread(handlers);
        library.requireInit();
        NetworkInterfaceState niGuess = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = library.requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        long token;
        long length;
        long mdHandleSent;
        int iface;
        int pid;
        int uid;
        long turn;
        LibraryState.acquire(handlers, lock);
        try {
            library.requireInit();
            MemoryDescriptorState md = activeMd(niGuess, mdHandle);
            if (region) {
                requireRegion(md, localOffset, regionLength);
            }
            length = region ? regionLength : md.length;
            requireCarried(length, region, "PtlGet");
            NetworkInterfaceState ni = niGuess;
            PendingOp op = begin(ni, md, PendingOp.Kind.GET_REQUEST, rank, target, portal, matchBits, offset,
                    length);
            op.localOffset = region ? localOffset : 0L;
            op.localLength = region ? regionLength : Long.MAX_VALUE; // PtlGet: as much as the MD holds then
            if (library.dialect == Dialect.PORTALS_3_3) {
                op.offset = op.localOffset; // REPLY events: where the data lands (see receiveReply)
            }
            iface = ni.index;
            pid = ni.pid;
            uid = ni.uid;
            mdHandleSent = md.handle;
            token = op.token;
            turn = channel.issued++;
        } finally {
            LibraryState.release(wakeups, lock);
        }
        channel.awaitTurn(turn);
        try {
            channel.header.begin(MessageType.GET, iface).initiator(selfNid, pid).user(uid)
                    .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                    .offset(offset).mdHandle(mdHandleSent).length(length).exchange(token);
            sender.send(rank, channel.buffer, MemorySegment.NULL, 0L, 0L, token, this);
        } finally {
            channel.pass(turn);
        }
    }

    /**
     * Portals 3.3 {@code PtlGetPut} (the reference implementation's atomic swap, {@code p3api/move.c},
     * {@code p3lib/move.c lib_PtlGetPut}): sends the whole put MD (at most
     * {@link MessageHeader#MAX_GETPUT_LENGTH} bytes) to the target, which swaps it with the bytes of the MD it
     * matches and replies with those; the reply lands at offset 0 of the get MD, truncated to it, as a get's
     * does. The put MD logs SEND_START and SEND_END, the get MD REPLY_START and REPLY_END; SEND_END always
     * comes first, the reply proving the bytes arrived. Each MD gives one unit of threshold now (the same MD
     * gives two, as far as it has them) and stays pending until its events are logged. No acknowledgement.
     *
     * @throws PortalsException {@code INV_MD} for a handle that is not a live MD or an MD whose threshold is
     *         0; {@code ILL_MD} for MDs of two interfaces or a put MD longer than the limit (the reference
     *         implementation's {@code PTL_MD_ILLEGAL}); {@code INV_PROC} for a target outside the job
     */
    void getPut(long getMdHandle, long putMdHandle, ProcessId target, int portal, int cookie, long matchBits,
                long remoteOffset, long hdrData) {
        LibraryState.refuseInHandlerThread(handlers);
        library.requireInit();
        NetworkInterfaceState ni = library.niOf(getMdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        NetworkInterfaceState putNi = library.niOf(putMdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = library.requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        MemorySegment payload;
        long length;
        long token;
        long getMdSent;
        int iface;
        int pid;
        int uid;
        long turn;
        LibraryState.acquire(handlers, lock);
        try {
            library.requireInit();
            MemoryDescriptorState getMd = activeMd(ni, getMdHandle);
            MemoryDescriptorState putMd = activeMd(putNi, putMdHandle);
            if (putNi != ni) {
                throw new PortalsException(ReturnCode.ILL_MD, "the get MD belongs to interface " + ni.index
                        + ", the put MD to interface " + putNi.index + ": PtlGetPut's MDs share one interface");
            }
            if (putMd.length > MessageHeader.MAX_GETPUT_LENGTH) {
                throw new PortalsException(ReturnCode.ILL_MD, "the put MD has " + putMd.length + " bytes; PtlGetPut"
                        + " swaps at most max_getput_md = " + MessageHeader.MAX_GETPUT_LENGTH);
            }
            length = putMd.length;
            PendingOp op = begin(ni, putMd, PendingOp.Kind.GETPUT_REQUEST, rank, target, portal, matchBits,
                    remoteOffset, length);
            if (getMd.threshold > 0) {
                getMd.threshold--;
            }
            getMd.pending++;
            op.replyMd = getMd;
            op.hdrData = hdrData;
            op.localOffset = 0L;
            op.localLength = Long.MAX_VALUE;
            op.link = ni.post(putMd, EventKind.SEND_START, NetworkInterfaceState.SELF_LINK, selfNid,
                    ni.pid, ni.uid, portal, matchBits, length, length, remoteOffset, hdrData, NiFailType.OK);
            ni.putBytes.value += length;
            iface = ni.index;
            pid = ni.pid;
            uid = ni.uid;
            getMdSent = getMd.handle;
            payload = putMd.start;
            token = op.token;
            turn = channel.issued++;
        } finally {
            LibraryState.release(wakeups, lock);
        }
        channel.awaitTurn(turn);
        try {
            channel.header.begin(MessageType.GETPUT, iface).initiator(selfNid, pid).user(uid)
                    .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                    .offset(remoteOffset).mdHandle(getMdSent).length(length).hdrData(hdrData).exchange(token);
            sender.send(rank, channel.buffer, payload, 0L, length, token, this);
        } finally {
            channel.pass(turn);
        }
    }

    /**
     * A put's payload, or the data a get asks for, is at most what one message of the transport carries;
     * else, before anything is taken or logged, PTL_INV_MD for PtlPut/PtlGet (the one MD code they have,
     * sections 3.11.1.1 and 3.11.2.1) and PTL_ILL_MD for a 3.3 region (as for any region the call cannot use).
     */
    private void requireCarried(long length, boolean region, String call) {
        if (length > maxPayload) {
            throw new PortalsException(region ? ReturnCode.ILL_MD : ReturnCode.INV_MD, call + " of "
                    + Long.toUnsignedString(length) + " bytes: the " + library.transport.provider()
                    + " transport carries at most " + maxPayload
                    + " bytes in one message (use a smaller memory descriptor"
                    + (region ? " region" : "") + ")");
        }
    }

    /** A PtlPutRegion/PtlGetRegion region inside the MD (3.3 &sect;3.13.3, &sect;3.13.5), else PTL_ILL_MD. */
    private static void requireRegion(MemoryDescriptorState md, long localOffset, long length) {
        if (localOffset < 0 || length < 0 || localOffset > md.length || length > md.length - localOffset) {
            throw new PortalsException(ReturnCode.ILL_MD, "the region of " + Long.toUnsignedString(length)
                    + " bytes at local offset " + Long.toUnsignedString(localOffset) + " is not inside the "
                    + md.length + "-byte memory descriptor");
        }
    }

    private MemoryDescriptorState activeMd(NetworkInterfaceState ni, long mdHandle) {
        MemoryDescriptorState md = ni.lookupMd(mdHandle);
        if (md == null) {
            throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x"
                    + Long.toHexString(mdHandle));
        }
        if (md.threshold == 0) {
            throw new PortalsException(ReturnCode.INV_MD,
                    "the memory descriptor's threshold is 0: it is inactive (A-27)");
        }
        return md;
    }

    private PendingOp begin(NetworkInterfaceState ni, MemoryDescriptorState md, PendingOp.Kind kind, int rank,
                            ProcessId target, int portal, long matchBits, long offset, long length) {
        if (md.threshold > 0) {
            md.threshold--;
        }
        md.pending++;
        PendingOp op = ops.allocate(kind);
        op.ni = ni;
        op.md = md;
        op.peerRank = rank;
        op.peerNid = target.nid();
        op.peerPid = target.pid();
        op.uid = ni.uid;
        op.portal = portal;
        op.matchBits = matchBits;
        op.rlength = length;
        op.mlength = length;
        op.offset = offset;
        return op;
    }

    /**
     * The payload of a staged put has left the MD, which the application may reuse: SEND_END is logged now
     * (Portals 3.2 section 3.9.1; the package documentation of {@code org.portals3j.portals}, "When SEND_END is
     * logged"). The op stays in flight, its buffer read by the transport, until the transport's report, which then
     * only frees it (or counts the message lost).
     */
    @Override
    public void stagedPayloadCopied(long token) {
        LibraryState.acquire(handlers, lock);
        try {
            PendingOp op = ops.lookup(token);
            if (op == null || op.ni == null || op.md == null) {
                return; // the interface was finalised meanwhile
            }
            finishSend(op, true);
            op.md = null;
            op.sendEnded = true;
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    // ==== acks and replies ========================================================================

    /**
     * An ack (Portals 3.2 spec §4.2). One that overtook its put's send completion (the transport reports it later)
     * completes the send now: the ack says the target has the whole message, so the buffer may be reused,
     * and SEND_END is logged, then the ACK. Keeping the ACK until the transport's report would let a
     * message the target sent after it (an answer to the put) be logged first. The op stays in flight,
     * with no MD, until the transport's report, which then only frees it.
     */
    void receiveAck(NetworkInterfaceState ni, MessageHeader h, int source) {
        PendingOp op = ops.lookup(h.exchange());
        if (op != null && op.kind == PendingOp.Kind.PUT_SEND && op.ni == ni && op.peerRank == source) {
            op.acknowledged = true; // delivered, whatever the transport reports later
        }
        if (op != null && op.kind == PendingOp.Kind.PUT_SEND && op.ni == ni && op.peerRank == source
                && op.md != null && op.md.handle == h.mdHandle() && h.mdHandle() != 0L) {
            op.ackWaiting = true;
            op.ackNid = h.initiatorNid();
            op.ackPid = h.initiatorPid();
            op.ackUid = h.user();
            op.ackRlength = h.length();
            op.ackMlength = h.manipulatedLength();
            finishSend(op, true);
            op.md = null; // completeSend, when the transport reports, only frees the op
            return;
        }
        acceptAck(ni, h.mdHandle(), h.initiatorNid(), h.initiatorPid(), h.user(), h.portal(), h.matchBits(), h.offset(),
                h.length(), h.manipulatedLength(), true);
    }

    /**
     * A reply (Portals 3.2 spec §4.2): accepted by the MD of the get it answers, whatever its options, truncated to the
     * MD's length and placed at offset 0. A reply naming no pending get is dropped and counted.
     * For a PtlGetRegion it is placed at the region's local offset, truncated to the region and to what
     * the MD holds after that offset now; a 3.3 library reports that local offset in the REPLY events
     * (3.3 &sect;3.11.4: the offset is "the displacement into the memory region that the operation used";
     * the reference implementation's {@code parse_reply} reports the reply's destination offset).
     */
    void receiveReply(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit) {
        PendingOp op = ops.lookup(h.exchange());
        if (op != null && op.kind == PendingOp.Kind.GETPUT_REQUEST) {
            receiveSwapReply(ni, h, source, deposit, op);
            return;
        }
        MemoryDescriptorState md = op == null ? null : op.md;
        if (op == null || md == null || op.kind != PendingOp.Kind.GET_REQUEST || op.ni != ni || op.started
                || op.peerRank != source || md.handle != h.mdHandle()) {
            ni.drop(StatusRegister.DROP_STALE_MD);
            return;
        }
        long room = md.length > op.localOffset ? md.length - op.localOffset : 0L;
        long mlength = Math.min(Math.min(h.manipulatedLength(), op.localLength), room);
        op.started = true;
        op.peerNid = h.initiatorNid();
        op.peerPid = h.initiatorPid();
        op.uid = h.user();
        op.rlength = h.length();
        op.mlength = mlength;
        op.offset = library.dialect == Dialect.PORTALS_3_3 ? op.localOffset : h.offset();
        op.link = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, mlength, op.offset, 0L, NiFailType.OK);
        deposit.accept(md.start, mlength == 0 ? 0 : op.localOffset, mlength);
        deposit.attach(op);
    }

    /**
     * The reply to this process's {@code PtlGetPut}: as a get's reply ({@link #receiveReply}), into the get MD
     * at offset 0; SEND_END is logged first if the send's completion has not come yet (the reply proves the
     * bytes arrived and were used), so SEND_END always comes before REPLY_END.
     */
    private void receiveSwapReply(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit,
                                  PendingOp op) {
        MemoryDescriptorState md = op.replyMd;
        if (md == null || op.ni != ni || op.started || op.peerRank != source || md.handle != h.mdHandle()) {
            ni.drop(StatusRegister.DROP_STALE_MD);
            return;
        }
        if (!op.sendEnded) {
            endSwapSend(op, true);
        }
        long mlength = Math.min(h.manipulatedLength(), md.length);
        op.started = true;
        op.peerNid = h.initiatorNid();
        op.peerPid = h.initiatorPid();
        op.uid = h.user();
        op.rlength = h.length();
        op.mlength = mlength;
        op.offset = 0L;
        op.link = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, mlength, 0L, 0L, NiFailType.OK);
        deposit.accept(md.start, 0L, mlength);
        deposit.attach(op);
    }

    /**
     * Logs an ACK (Portals 3.2 spec §4.2): only if the MD still exists and has an event queue with room; otherwise the
     * ack is dropped and counted (Portals 3.2 spec §4.2, A-35). The threshold is not touched.
     *
     * <p>Portals 3.3 counts an acknowledgement against the threshold: "an operation is any action that
     * could possibly generate an event" (3.3 &sect;3.10.1, as LNet's {@code lnet_md_t} keeps the text), and
     * the reference implementation decrements it in {@code parse_ack} and drops an ack for an inactive
     * MD. So a 3.3 MD at threshold 0 drops the ack (counted under {@code PTL_SR_DROP_STALE_MD}), and an
     * ack that brings the threshold to 0 unlinks a PTL_UNLINK MD (with {@code unlinkIfInactive}): the
     * "threshold 2: unlink after send and ack" pattern of 3.3 programs.
     *
     * @param unlinkIfInactive unlink the MD here if the ack made it inactive (false when the caller does,
     *                         with the put's completion)
     * @return the ACK event's sequence, or 0 if no ACK was logged
     */
    private static long acceptAck(NetworkInterfaceState ni, long mdHandle, int fromNid, int fromPid, int fromUid,
                                  int portal, long bits, long offset, long rlength, long mlength,
                                  boolean unlinkIfInactive) {
        MemoryDescriptorState md = ni.lookupMd(mdHandle);
        if (md == null || (md.dialect33 && md.threshold == 0)) {
            ni.drop(StatusRegister.DROP_STALE_MD);
            return 0;
        }
        EventQueueState q = md.eventQueue();
        if (q == null || q.full()) {
            ni.drop(StatusRegister.DROP_ACK_NO_EQ);
            return 0;
        }
        if (md.dialect33 && md.threshold > 0) {
            md.threshold--;
        }
        long ack = ni.post(md, EventKind.ACK, NetworkInterfaceState.SELF_LINK, fromNid, fromPid, fromUid, portal, bits,
                rlength, mlength, offset, 0L, NiFailType.OK);
        if (unlinkIfInactive && md.dialect33) {
            ni.autoUnlinkIfInactive(md, ack, fromNid, fromPid, fromUid, portal, bits, rlength, mlength, offset);
        }
        return ack;
    }

    // ==== completion ==============================================================================

    /**
     * The transport's report of a request this process sent (or its refusal): a put's SEND_END, a get that will
     * never be answered, a {@code PtlGetPut}'s SEND_END. Under the lock.
     */
    void sendCompleted(PendingOp op, boolean delivered) {
        switch (op.kind) {
            case PUT_SEND -> completeSend(op, delivered);
            case GET_REQUEST -> {
                if (!delivered && !op.started) {
                    failGet(op, library.failReason(op));
                }
            }
            case GETPUT_REQUEST -> completeSwapSend(op, delivered);
        }
    }

    /** A message the transport refused completes as an undelivered one. */
    @Override
    public void sendRefused(long token) {
        LibraryState.acquire(handlers, lock);
        try {
            PendingOp op = library.opToComplete(token);
            if (op != null) {
                sendCompleted(op, false);
            }
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /** The reply of a get or {@code PtlGetPut} is in place (or its transfer failed). Under the lock. */
    void replyDeposited(PendingOp op, Deposit deposit) {
        if (op.kind == PendingOp.Kind.GETPUT_REQUEST) {
            completeSwapReply(op, deposit);
        } else {
            completeReply(op, deposit);
        }
    }

    /** REPLY_END of a {@code PtlGetPut} once the old bytes are in the get MD; the op ends with its send. */
    private void completeSwapReply(PendingOp op, Deposit deposit) {
        if (endReply(op, op.replyMd, EventKind.REPLY_END, 0L, deposit)) {
            op.replyEnded = true;
            if (op.sendEnded) {
                ops.release(op);
            }
        }
    }

    /**
     * SEND_END (with {@code ni_fail_type} if not {@code delivered}) of a {@code PtlGetPut}'s put MD, at most once:
     * from the send's completion or from the reply, whichever comes first.
     */
    private void endSwapSend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        op.sendEnded = true;
        if (ni == null || md == null) {
            return;
        }
        long end = ni.post(md, EventKind.SEND_END, op.link, selfNid, ni.pid, ni.uid, op.portal, op.matchBits,
                op.rlength, op.mlength, op.offset, op.hdrData, delivered ? NiFailType.OK : library.failReason(op));
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, end, selfNid, ni.pid, ni.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /** A {@code PtlGetPut}'s send completed: SEND_END unless the reply logged it; a lost send fails the reply too. */
    private void completeSwapSend(PendingOp op, boolean delivered) {
        if (!op.sendEnded) {
            endSwapSend(op, delivered);
        }
        if (!delivered && !op.started) {
            failSwapReply(op, library.failReason(op));
        } else if (op.replyEnded) {
            ops.release(op);
        }
    }

    /**
     * A {@code PtlGetPut} that will never be answered (its target failed): REPLY_START and REPLY_END on the get MD
     * with {@code ni_fail_type} saying why, as {@link #failGet} does for a get.
     */
    private void failSwapReply(PendingOp op, NiFailType why) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.replyMd;
        if (ni != null && md != null) {
            long start = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid,
                    op.uid, op.portal, op.matchBits, op.rlength, 0L, 0L, 0L, why);
            ni.post(md, EventKind.REPLY_END, start, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits,
                    op.rlength, 0L, 0L, 0L, why);
            ni.releasePending(md);
        }
        ops.release(op);
    }

    /** REPLY_END or REPLY_FAIL once the reply's data is in place (Portals 3.2 spec §3.9.1). */
    private void completeReply(PendingOp op, Deposit deposit) {
        if (endReply(op, op.md, EventKind.REPLY_FAIL, op.offset, deposit)) {
            ops.release(op);
        }
    }

    /**
     * The end event of a reply on {@code md} once its data is in place: REPLY_END, or {@code failedKind} with
     * MEMORY_FAULT when the deposit failed; then the automatic unlink. False (nothing logged) if the op was freed or
     * its interface is gone.
     */
    private boolean endReply(PendingOp op, @Nullable MemoryDescriptorState md, EventKind failedKind, long offset,
                             Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        if (!op.inUse || ni == null || md == null || !ni.isLive()) {
            return false;
        }
        boolean failed = deposit.failed();
        long mlength = failed ? deposit.deposited() : op.mlength;
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long end = ni.post(md, failed ? failedKind : EventKind.REPLY_END, op.link, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, mlength, offset, 0L,
                failed ? NiFailType.MEMORY_FAULT : NiFailType.OK);
        ni.releasePending(md);
        if (!failed) {
            ni.autoUnlinkIfInactive(md, end, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                    mlength, offset);
        }
        return true;
    }

    /**
     * SEND_END once the buffer may be reused (Portals 3.2 spec §3.9.1), then a waiting ack, then the automatic unlink;
     * a staged send (its SEND_END logged once its payload was copied) that the transport then failed to deliver is
     * counted ({@link StatusRegister#SENDS_LOST}): the SEND_END cannot be taken back.
     */
    private void completeSend(PendingOp op, boolean delivered) {
        if (op.sendEnded) {
            op.countLost(delivered || op.acknowledged);
        } else {
            finishSend(op, delivered);
        }
        ops.release(op);
    }

    /** The events and state of {@link #completeSend}, without freeing the op. */
    private void finishSend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            return;
        }
        long end = ni.post(md, delivered ? EventKind.SEND_END : EventKind.SEND_FAIL, op.link, selfNid,
                ni.pid, ni.uid, op.portal, op.matchBits, op.rlength, op.mlength, op.offset, op.hdrData,
                delivered ? NiFailType.OK : library.failReason(op));
        long cause = end;
        if (delivered && op.ackWaiting) {
            long ack = acceptAck(ni, md.handle, op.ackNid, op.ackPid, op.ackUid, op.portal, op.matchBits, op.offset,
                    op.ackRlength, op.ackMlength, false);
            if (md.dialect33 && ack != 0) {
                cause = ack; // in 3.3 the ack took threshold too: it is what may have made the MD inactive
            }
        }
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, cause, selfNid, ni.pid, ni.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /**
     * A get that will never be answered (its target failed): REPLY_START and REPLY_FAIL, so that the
     * operation still reports an initiation and a completion (Portals 3.2 spec §1.7), with {@code ni_fail_type} saying
     * why.
     */
    private void failGet(PendingOp op, NiFailType why) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            ops.release(op);
            return;
        }
        long start = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, 0L, op.offset, 0L, why);
        ni.post(md, EventKind.REPLY_FAIL, start, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                0L, op.offset, 0L, why);
        ni.releasePending(md);
        ops.release(op);
    }

    /** A peer failed: the gets and {@code PtlGetPut}s it will never answer fail now. Under the lock. */
    void peerFailed(int peer) {
        ops.forEachInUse(op -> {
            if (op.kind == PendingOp.Kind.GET_REQUEST && op.peerRank == peer && !op.started) {
                failGet(op, NiFailType.PEER_DEAD);
            } else if (op.kind == PendingOp.Kind.GETPUT_REQUEST && op.peerRank == peer && !op.started) {
                if (!op.sendEnded) {
                    endSwapSend(op, false);
                }
                failSwapReply(op, NiFailType.PEER_DEAD);
            }
        });
    }
}
