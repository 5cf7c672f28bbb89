package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AttachedEntry;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.EqPollResult;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiInit;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.PeerTable;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.internal.SpinLock;

/**
 * The Portals library of one process, entered by the public façade (each API call, delegated to the class of its
 * object or protocol side) and by the transport (its message handler, dispatching to the initiator or target side).
 */
public final class PortalsEngine implements MessageHandler {
    /** Portals 3.3 {@code PTL_TIME_FOREVER} as a PtlEQPoll timeout: no limit. */
    public static final long TIME_FOREVER = EventQueues.TIME_FOREVER;
    /**
     * A waiter handed the START event of a message with at most this many payload bytes is woken by
     * the message's {@link #onDeposited}, not by {@link #onHeader}: a deposit this small follows its
     * header within microseconds on any transport (inmem copies it inline, between the two calls), and
     * the waiter then wakes once, finding the END event already in the queue, instead of waking into
     * a lock the delivering thread is about to take again ({@link Wakeups}). The transport calls
     * {@code onDeposited} for every message, also a failed one, and for a message with an attachment
     * (a put or reply being deposited) it takes the lock, so the wake always comes. A larger message's
     * START wakes its waiter at once: the payload may take a while.
     */
    static final long DEFERRED_WAKE_LIMIT = 64 * 1024;

    private final LibraryState library;
    // The library's lock, handler check, wake list and other fixed state, held here too: one hop less on the
    // hot paths (bench/README.md, issue 18 put path).
    private final SpinLock lock;
    private final HandlerCalls handlers;
    private final Wakeups wakeups;
    private final int selfNid;
    private final NetworkInterfaceState[] nis;
    /** The job's peers, which a header's sender is checked against. */
    private final PeerTable peers;
    private final MessageSender sender;
    private final Initiator initiator;
    private final Target target;
    private final NetworkInterfaces interfaces;
    private final MatchEntries matchEntries;
    private final MemoryDescriptors memoryDescriptors;
    private final EventQueues eventQueues;
    private final AccessControl accessControl;
    /** The header being received: the transport serialises header/deposit callbacks, so one suffices. */
    private final MessageHeader rx = new MessageHeader();

    private PortalsEngine(Job job, Transport transport, PortalsConfig config, Dialect dialect,
                          EventStorage.ChunkAllocator chunkAllocator) {
        // The buffers small puts and get replies are copied into; none on an inline transport.
        SendStaging staging = deliversInline(transport) ? new SendStaging(0, 0)
                : new SendStaging(config.stagedSendLimit(), config.stagingBuffers());
        this.library = new LibraryState(job, transport, config, dialect, staging);
        this.lock = library.lock;
        this.handlers = library.handlers;
        this.wakeups = library.wakeups;
        this.selfNid = library.self.nid();
        this.nis = library.nis;
        this.peers = job.peers();
        this.sender = new MessageSender(transport, staging);
        this.target = new Target(library, sender);
        this.initiator = new Initiator(library, sender);
        this.interfaces = new NetworkInterfaces(library, target);
        this.eventQueues = new EventQueues(library, chunkAllocator);
        this.memoryDescriptors = new MemoryDescriptors(library);
        this.matchEntries = new MatchEntries(library);
        this.accessControl = new AccessControl(library);
        if (transport.maxHeaderLength() < MessageHeader.LENGTH) {
            throw new IllegalArgumentException("transport " + transport.provider() + " carries headers of at most "
                    + transport.maxHeaderLength() + " bytes; Portals needs " + MessageHeader.LENGTH);
        }
    }

    /** Creates the Portals 3.2 library for the rank whose endpoint {@code transport} is, and starts receiving. */
    public static PortalsEngine create(Job job, Transport transport, PortalsConfig config) {
        return create(job, transport, config, Dialect.PORTALS_3_2);
    }

    /**
     * Creates the library of {@code dialect} for the rank whose endpoint {@code transport} is, and starts
     * receiving.
     */
    public static PortalsEngine create(Job job, Transport transport, PortalsConfig config, Dialect dialect) {
        return create(job, transport, config, dialect, EventStorage.ChunkAllocator.DEFAULT);
    }

    /**
     * As {@link #create(Job, Transport, PortalsConfig, Dialect)}, with event queue chunks from
     * {@code chunkAllocator}.
     */
    static PortalsEngine create(Job job, Transport transport, PortalsConfig config, Dialect dialect,
                                EventStorage.ChunkAllocator chunkAllocator) {
        PortalsEngine engine = new PortalsEngine(job, transport, config, dialect, chunkAllocator);
        transport.start(engine);
        return engine;
    }

    /**
     * Whether {@code transport} says it delivers inline ({@link TransportCapability#INLINE_DELIVERY}).
     * Such a transport reports a send complete once it has copied the payload into the target, before the target's
     * handler hears of it: SEND_END comes before anything the message causes without staging, which would only add
     * a copy.
     */
    private static boolean deliversInline(Transport transport) {
        return transport.capabilities().contains(TransportCapability.INLINE_DELIVERY);
    }

    /** The specification this library follows. */
    public Dialect dialect() {
        return library.dialect;
    }

    public Transport transport() {
        return library.transport;
    }

    public Job job() {
        return library.job;
    }

    public int rank() {
        return library.transport.rank();
    }

    // ==== the library and its network interfaces ================================================

    /** PtlInit: see {@link NetworkInterfaces#init}. */
    public int init() {
        return interfaces.init();
    }

    /** PtlFini: see {@link NetworkInterfaces#fini}. */
    public void fini() {
        interfaces.fini();
    }

    /** PtlNIInit: see {@link NetworkInterfaces#niInit}. */
    public NiInit niInit(int iface, int pid, @Nullable NiLimits desired) {
        return interfaces.niInit(iface, pid, desired);
    }

    /** PtlNIFini: see {@link NetworkInterfaces#niFini}. */
    public void niFini(long niHandle) {
        interfaces.niFini(niHandle);
    }

    /** PtlNIStatus: see {@link NetworkInterfaces#niStatus}. */
    public long niStatus(long niHandle, StatusRegister register) {
        return interfaces.niStatus(niHandle, register);
    }

    /** PtlNIDist: see {@link NetworkInterfaces#niDist}. */
    public long niDist(long niHandle, ProcessId process) {
        return interfaces.niDist(niHandle, process);
    }

    /** PtlNIHandle: see {@link NetworkInterfaces#niHandle}. */
    public long niHandle(long anyHandle) {
        return interfaces.niHandle(anyHandle);
    }

    /** PtlGetUid: see {@link NetworkInterfaces#getUid}. */
    public int getUid(long niHandle) {
        return interfaces.getUid(niHandle);
    }

    /** PtlGetId: see {@link NetworkInterfaces#getId}. */
    public ProcessId getId(long niHandle) {
        return interfaces.getId(niHandle);
    }

    /** Portals 3.3 PtlGetJid: see {@link NetworkInterfaces#getJid}. */
    public int getJid(long niHandle) {
        return interfaces.getJid(niHandle);
    }

    // ==== match entries =========================================================================

    /** PtlMEAttach: see {@link MatchEntries#meAttach}. */
    public long meAttach(long niHandle, int portal, ProcessId matchId, long matchBits, long ignoreBits,
                         Unlink unlink, InsertPosition position) {
        return matchEntries.meAttach(niHandle, portal, matchId, matchBits, ignoreBits, unlink, position);
    }

    /** PtlMEAttachAny: see {@link MatchEntries#meAttachAny}. */
    public AttachedEntry meAttachAny(long niHandle, ProcessId matchId, long matchBits, long ignoreBits,
                                     Unlink unlink) {
        return matchEntries.meAttachAny(niHandle, matchId, matchBits, ignoreBits, unlink);
    }

    /** PtlMEInsert: see {@link MatchEntries#meInsert}. */
    public long meInsert(long current, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink,
                         InsertPosition position) {
        return matchEntries.meInsert(current, matchId, matchBits, ignoreBits, unlink, position);
    }

    /** PtlMEUnlink: see {@link MatchEntries#meUnlink}. */
    public void meUnlink(long meHandle) {
        matchEntries.meUnlink(meHandle);
    }

    // ==== memory descriptors ====================================================================

    /** PtlMDAttach: see {@link MemoryDescriptors#mdAttach}. */
    public long mdAttach(long meHandle, MemoryDescriptor value, Unlink unlinkOp, Unlink unlinkNofit) {
        return memoryDescriptors.mdAttach(meHandle, value, unlinkOp, unlinkNofit);
    }

    /** PtlMDBind: see {@link MemoryDescriptors#mdBind(long, MemoryDescriptor)}. */
    public long mdBind(long niHandle, MemoryDescriptor value) {
        return memoryDescriptors.mdBind(niHandle, value);
    }

    /** Portals 3.3 PtlMDBind: see {@link MemoryDescriptors#mdBind(long, MemoryDescriptor, Unlink)}. */
    public long mdBind(long niHandle, MemoryDescriptor value, Unlink unlinkOp) {
        return memoryDescriptors.mdBind(niHandle, value, unlinkOp);
    }

    /** PtlMDUnlink: see {@link MemoryDescriptors#mdUnlink}. */
    public void mdUnlink(long mdHandle) {
        memoryDescriptors.mdUnlink(mdHandle);
    }

    /** PtlMDUpdate: see {@link MemoryDescriptors#mdUpdate}. */
    public MdUpdateResult mdUpdate(long mdHandle, @Nullable MemoryDescriptor newValue, long testq) {
        return memoryDescriptors.mdUpdate(mdHandle, newValue, testq);
    }

    // ==== event queues ==========================================================================

    /** PtlEQAlloc: see {@link EventQueues#eqAlloc(long, long)}. */
    public long eqAlloc(long niHandle, long count) {
        return eventQueues.eqAlloc(niHandle, count);
    }

    /** PtlEQAlloc, in Portals 3.3 with a handler: see {@link EventQueues#eqAlloc(long, long, EventHandler)}. */
    public long eqAlloc(long niHandle, long count, @Nullable EventHandler handler) {
        return eventQueues.eqAlloc(niHandle, count, handler);
    }

    /** PtlEQFree: see {@link EventQueues#eqFree}. */
    public void eqFree(long eqHandle) {
        eventQueues.eqFree(eqHandle);
    }

    /** PtlEQGet: see {@link EventQueues#eqGet}. */
    public ReturnCode eqGet(long eqHandle, Event into) {
        return eventQueues.eqGet(eqHandle, into);
    }

    /** PtlEQWait: see {@link EventQueues#eqWait}. */
    public ReturnCode eqWait(long eqHandle, Event into) {
        return eventQueues.eqWait(eqHandle, into);
    }

    /** PtlEQWait that an interrupt ends: see {@link EventQueues#eqWaitInterruptibly}. */
    public ReturnCode eqWaitInterruptibly(long eqHandle, Event into) throws InterruptedException {
        return eventQueues.eqWaitInterruptibly(eqHandle, into);
    }

    /** Portals 3.3 PtlEQPoll: see {@link EventQueues#eqPoll}. */
    public EqPollResult eqPoll(EqHandle[] queues, long timeoutMillis, Event into) {
        return eventQueues.eqPoll(queues, timeoutMillis, into);
    }

    // ==== access control ========================================================================

    /** PtlACEntry: see {@link AccessControl#acEntry(long, int, ProcessId, int, int)}. */
    public void acEntry(long niHandle, int index, ProcessId matchId, int uid, int portal) {
        accessControl.acEntry(niHandle, index, matchId, uid, portal);
    }

    /** Portals 3.3 PtlACEntry: see {@link AccessControl#acEntry(long, int, ProcessId, int, int, int)}. */
    public void acEntry(long niHandle, int index, ProcessId matchId, int uid, int jobId, int portal) {
        accessControl.acEntry(niHandle, index, matchId, uid, jobId, portal);
    }

    // ==== data movement =========================================================================

    /** PtlPut: see {@link Initiator#put(long, AckRequest, ProcessId, int, int, long, long, long)}. */
    public void put(long mdHandle, AckRequest ack, ProcessId target, int portal, int cookie, long matchBits,
                    long offset, long hdrData) {
        initiator.put(mdHandle, ack, target, portal, cookie, matchBits, offset, hdrData);
    }

    /** Portals 3.3 PtlPutRegion: see {@link Initiator#putRegion}. */
    public void putRegion(long mdHandle, long localOffset, long length, AckRequest ack, ProcessId target, int portal,
                          int cookie, long matchBits, long remoteOffset, long hdrData) {
        initiator.putRegion(mdHandle, localOffset, length, ack, target, portal, cookie, matchBits, remoteOffset,
                hdrData);
    }

    /** PtlGet: see {@link Initiator#get(long, ProcessId, int, int, long, long)}. */
    public void get(long mdHandle, ProcessId target, int portal, int cookie, long matchBits, long offset) {
        initiator.get(mdHandle, target, portal, cookie, matchBits, offset);
    }

    /** Portals 3.3 PtlGetRegion: see {@link Initiator#getRegion}. */
    public void getRegion(long mdHandle, long localOffset, long length, ProcessId target, int portal, int cookie,
                          long matchBits, long remoteOffset) {
        initiator.getRegion(mdHandle, localOffset, length, target, portal, cookie, matchBits, remoteOffset);
    }

    /** Portals 3.3 PtlGetPut: see {@link Initiator#getPut}. */
    public void getPut(long getMdHandle, long putMdHandle, ProcessId target, int portal, int cookie, long matchBits,
                       long remoteOffset, long hdrData) {
        initiator.getPut(getMdHandle, putMdHandle, target, portal, cookie, matchBits, remoteOffset, hdrData);
    }

    // ==== the transport's side ==================================================================

    /**
     * A message's header: dropped and counted unless it is well formed, from the process it says, for a live
     * interface of this one; then a request goes to the target side, an answer to the initiator side.
     */
    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        if (headerLength != MessageHeader.LENGTH || header.byteSize() < MessageHeader.LENGTH) {
            countUnattributed();
            return;
        }
        MessageHeader h = rx.load(header);
        MessageType type = h.validate(headerLength, payloadLength, nis.length);
        boolean reply = false;
        LibraryState lib = library;
        LibraryState.acquire(handlers, lock);
        try {
            int iface = h.iface();
            NetworkInterfaceState ni = iface < nis.length ? nis[iface] : null;
            if (!lib.initialized || ni == null || !ni.isLive()) {
                lib.unattributed++;
                return;
            }
            // Remote input is hostile: a frame must say who sent it truthfully (the transport knows the
            // source) and be well formed before any field is used.
            if (type == null || h.initiatorNid() != peers.member(source).nid()) {
                ni.drop(StatusRegister.DROP_MALFORMED);
                return;
            }
            if (h.targetNid() != selfNid || h.targetPid() != ni.pid) {
                ni.drop(StatusRegister.DROP_WRONG_PID); // Portals 3.2 spec §4.2
                return;
            }
            switch (type) {
                case PUT -> target.receivePut(ni, h, source, deposit);
                case GET -> reply = target.receiveGet(ni, h, source);
                case ACK -> initiator.receiveAck(ni, h, source);
                case REPLY -> initiator.receiveReply(ni, h, source, deposit);
                case GETPUT -> target.receiveGetPut(ni, h, source, deposit);
            }
        } finally {
            if (deposit.attachment() != null && payloadLength <= DEFERRED_WAKE_LIMIT) {
                // onDeposited, which always follows (MessageHandler) and takes the lock, wakes them
                lock.unlock();
            } else {
                LibraryState.release(wakeups, lock);
            }
        }
        if (reply) {
            target.sendPreparedReply();
        }
    }

    /** The end of a put or reply whose data is in place (or whose transfer failed). */
    @Override
    public void onDeposited(int source, Deposit deposit) {
        Object attachment = deposit.attachment();
        if (attachment instanceof IncomingPut p) {
            target.putDeposited(source, p, deposit);
        } else if (attachment instanceof PendingOp op) {
            boolean reply = false;
            LibraryState.acquire(handlers, lock);
            try {
                if (op.kind == PendingOp.Kind.GETPUT_REPLY) {
                    reply = target.swapDeposited(source, op, deposit);
                } else {
                    initiator.replyDeposited(op, deposit);
                }
            } finally {
                LibraryState.release(wakeups, lock);
            }
            if (reply) {
                target.sendPreparedReply();
            }
        }
    }

    /** A send's report: the side whose op it is ends it (an op PtlNIFini detached is only freed). */
    @Override
    public void onSendComplete(long token, boolean delivered) {
        LibraryState lib = library;
        LibraryState.acquire(handlers, lock);
        try {
            PendingOp op = lib.opToComplete(token);
            if (op == null) {
                return;
            }
            // Two comparisons, not a switch: the initiator's sendCompleted switches on the kind again.
            PendingOp.Kind kind = op.kind;
            if (kind == PendingOp.Kind.GET_REPLY || kind == PendingOp.Kind.GETPUT_REPLY) {
                target.replySent(op, delivered);
            } else {
                initiator.sendCompleted(op, delivered);
            }
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /** A peer failed: the requests it will never answer fail ({@link Initiator#peerFailed}). */
    @Override
    public void onPeerFailure(int peer) {
        LibraryState.acquire(handlers, lock);
        try {
            initiator.peerFailed(peer);
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    private void countUnattributed() {
        LibraryState.acquire(handlers, lock);
        try {
            library.unattributed++;
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /** How many staging buffers are free now (diagnostics and tests). */
    int freeStagingBuffers() {
        LibraryState.acquire(handlers, lock);
        try {
            return sender.freeStagingBuffers();
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /** Messages that reached no initialised interface of this process (diagnostics). */
    public long unattributedMessages() {
        LibraryState.acquire(handlers, lock);
        try {
            return library.unattributed;
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }
}
