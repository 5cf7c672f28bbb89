package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.isotach.TmPlacement;
import org.portals3j.isotach.internal.gc.BarrierTable;
import org.portals3j.isotach.internal.gc.Owner;
import org.portals3j.isotach.internal.gc.SignalTable;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.noniso.NonisoLayer;
import org.portals3j.isotach.internal.siu.NanoClock;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.smm.SharedMemory;
import org.portals3j.isotach.internal.smm.SharedReferenceKind;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.internal.AwaitLoop;
import org.portals3j.transport.internal.BackoffIdle;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * One host's Isotach layer behind {@code IsotachNet} (the report's Hostman): opens and closes the net, polls every
 * module, and routes each Appendix A call to its module; called by the application's thread only.
 */
public final class IsotachEngine extends CacheLinePadding {
    private static final int SUCCESS = 0;
    private static final int FAILURE = 1;
    private static final int NO_MESSAGE = -1;
    private static final int SYNC_HELLO = 0;
    private static final int SYNC_DONE = 2;
    /**
     * Bits of the reset bs-marker: reset only. The report's 0x83 also primed the TM's barrier credits; ours needs none.
     */
    private static final int RESET_BITS = 0x80;

    /** The spins of a wait of this layer before it yields (it never parks: nothing else polls its modules). */
    private static final int WAIT_SPINS = 1_000;

    private final Transport transport;
    /** Where the host's thread waits (open_net's rounds, iso_retrieve). */
    private final AwaitLoop awaitLoop;
    private final IdleStrategy waitIdle =
            new BackoffIdle(WAIT_SPINS, Integer.MAX_VALUE, 1L, 1L, LockSupport::parkNanos);
    private final RetrieveWait retrieveWait = new RetrieveWait();
    private final IsotachConfig config;
    private final int me;
    private final int hosts;
    private final int tmRank;
    private final SwitchNode siu;
    private final IsotachHost host;
    private final NonisoLayer noniso;
    private final SharedMemory sharedMemory;
    private final SignalTable signals;
    private final IsotachHost.SharedReferenceExecutor executor;
    private final BarrierTable barriers;
    private final IsoMessage scratchNotice = new IsoMessage();
    private final SharedMemoryAccess sharedMemoryAccess;
    /** The transport side: frames checked and handed to the modules. */
    private final FrameIntake intake;

    /** The Isotach net's lifecycle (A.1): opened once, closed once. */
    enum State {
        /** Constructed, or after an open_net that failed: open_net may be called. */
        CREATED,
        /** In open_net: synchronising with the other hosts, then waiting for the reset. */
        OPENING,
        /** open_net succeeded: the calls of the interfaces it opened work. */
        OPEN,
        /** try_close_net started the closing barrier (after the sends drained); the calls still work. */
        CLOSE_BARRIER,
        /** The closing barrier completed: waiting for the delivery queue to drain. */
        DRAINING,
        /** Closed by try_close_net or close (also after a fatal error): every call but the status getters fails. */
        CLOSED;

        /** Whether a net in this state may move to {@code next}. */
        boolean canBecome(State next) {
            return switch (this) {
                case CREATED -> next == OPENING || next == CLOSED;
                case OPENING -> next == OPEN || next == CREATED || next == CLOSED;
                case OPEN -> next == CLOSE_BARRIER || next == CLOSED;
                case CLOSE_BARRIER -> next == DRAINING || next == CLOSED;
                case DRAINING -> next == CLOSED;
                case CLOSED -> false;
            };
        }

        /** Whether the calls of the opened interfaces work. */
        boolean isOpen() {
            return this == OPEN || this == CLOSE_BARRIER || this == DRAINING;
        }
    }

    private Set<Interface> open = EnumSet.noneOf(Interface.class);
    /** Changed only by {@link #state(State)}; volatile so that a close is seen by a waiting {@code iso_retrieve}. */
    private volatile State state = State.CREATED;
    private final boolean[] syncHello;
    private final boolean[] syncDone;

    public IsotachEngine(Transport transport, IsotachConfig config) {
        this.transport = transport;
        this.awaitLoop = new AwaitLoop(Polling.of(transport));
        this.config = config;
        this.me = transport.rank();
        boolean ownTm = config.tmPlacement() == TmPlacement.OWN_PROCESS;
        this.hosts = ownTm ? transport.size() - 1 : transport.size();
        if (hosts < 1) {
            throw new IllegalArgumentException("a job with a token-manager process needs at least 2 ranks");
        }
        if (me >= hosts) {
            throw new IllegalArgumentException("rank " + me
                    + " runs the token manager, not a host: use IsotachNet.runTokenManager");
        }
        if (config.distanceMatrixSize() != 0 && config.distanceMatrixSize() != hosts) {
            throw new IllegalArgumentException("the distance matrix is " + config.distanceMatrixSize() + "x"
                    + config.distanceMatrixSize() + " but the job has " + hosts + " hosts");
        }
        if (Frame.MAX_LENGTH > transport.maxHeaderLength()) {
            throw new IllegalArgumentException("transport " + transport.provider() + " carries headers of at most "
                    + transport.maxHeaderLength() + " bytes; the Isotach layer needs " + Frame.MAX_LENGTH);
        }
        if (config.maxPayload() > transport.maxPayloadLength()) {
            throw new IllegalArgumentException("max payload " + config.maxPayload() + " exceeds what transport "
                    + transport.provider() + " carries (" + transport.maxPayloadLength() + ")");
        }
        this.tmRank = ownTm ? transport.size() - 1 : 0;
        // The modules call back into each other; the callbacks capture the modules, not this half-built engine.
        SwitchNode node = new SwitchNode(transport, config, hosts, tmRank, NanoClock.SYSTEM);
        SharedMemory smm = new SharedMemory(me, hosts, config);
        NonisoLayer nonisoLayer = new NonisoLayer(me, hosts, config, transport,
                (source, value, readSlot, pulse) -> smm.completeRead(readSlot, value, pulse));
        boolean[] hello = new boolean[hosts];
        @Nullable IsotachHost[] hostRef = new IsotachHost[1];
        boolean[] done = new boolean[hosts];
        IsotachHost isoHost = new IsotachHost(me, hosts, config, node, new IsotachHost.LinkListener() {
            @Override
            public void onSync(int peer, int phase, int nonisoSlots, int isoCredits) {
                if (peer >= hosts) {
                    return; // a token-manager process is not a host
                }
                if (phase == SYNC_HELLO) {
                    hello[peer] = true;
                    nonisoLayer.peerRegion(peer, nonisoSlots); // I-132: what the peer reserved for us
                    IsotachHost self = hostRef[0];
                    if (self != null) {
                        self.peerCredits(peer, isoCredits);
                    }
                } else if (phase == SYNC_DONE) {
                    done[peer] = true;
                }
            }

            @Override
            public void onPeerDown(int peer) {
                // The switch node already stopped waiting for it; nothing else is held for a dead peer.
            }
        });
        hostRef[0] = isoHost;
        SignalTable signalTable = new SignalTable();
        @Nullable BarrierTable[] table = new BarrierTable[1];
        BarrierTable barrierTable = new BarrierTable(config.networkDiameter(hosts),
                (channel, count) -> isoHost.enqueueBarrierSignalMarker(1 << channel, count,
                        isUnclaimed(table[0], channel)));
        table[0] = barrierTable;
        isoHost.noticeSource(new IsotachHost.NoticeSource() {
            @Override
            public int signals(int endOfPulseBits) {
                return signalTable.notify(endOfPulseBits);
            }

            @Override
            public int barriers(int endOfPulseBits) {
                return barrierTable.notify(endOfPulseBits);
            }
        });
        this.siu = node;
        this.sharedMemory = smm;
        this.noniso = nonisoLayer;
        this.host = isoHost;
        this.signals = signalTable;
        this.barriers = barrierTable;
        this.syncHello = hello;
        this.syncDone = done;
        this.sharedMemoryAccess = new SharedMemoryAccess(me, hosts, isoHost, smm);
        this.intake = new FrameIntake(transport, node, nonisoLayer, isoHost);
        SharedMemory.ReadResponder respond = (reader, readSlot, value, pulse) -> {
            if (reader == me) {
                smm.completeRead(readSlot, value, pulse);
                return true;
            }
            return nonisoLayer.sendReadResponse(reader, value, readSlot, pulse) == SUCCESS;
        };
        this.executor = (subtype, source, address, operand, pulse) -> {
            SharedReferenceKind kind = SharedReferenceKind.of(subtype);
            if (kind == null) {
                throw new IsotachFatalError("unknown shared-memory reference " + subtype + " from " + source);
            }
            return smm.execute(kind, source, address, operand, pulse, respond);
        };
        transport.start(intake);
    }

    private static boolean isUnclaimed(@Nullable BarrierTable table, int channel) {
        return table != null && table.owner(channel) == Owner.UNCLAIMED;
    }

    // =========================================================================================================
    // A.1
    // =========================================================================================================

    public int openNet(Set<Interface> interfaces, Duration timeout) {
        if (state != State.CREATED || interfaces.isEmpty()
                || (interfaces.contains(Interface.ISO_MBM) && interfaces.contains(Interface.ISO_SMM))) {
            return FAILURE; // I-125: MBM and SMM exclude each other (Isotach report App. A, p. 94)
        }
        if (!config.hostNames().isEmpty() && config.hostNames().size() != hosts) {
            // I-135: the configuration names another set of hosts than the job has: this host is not (or not
            // alone) where the file says, and nothing could be addressed by name reliably.
            return FAILURE;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        state(State.OPENING);
        open = EnumSet.copyOf(interfaces);
        if (open.contains(Interface.ISO_SMM)) {
            host.sharedMemoryMode(executor);
        }
        try {
            // Synchronise (Isotach report §5.5, pp. 37-38): tell every host what we reserved for it, then a done round
            // (a barrier).
            syncHello[me] = true;
            syncDone[me] = true;
            broadcastSync(SYNC_HELLO);
            if (!waitFor(() -> all(syncHello), deadline)) {
                return openFailed();
            }
            broadcastSync(SYNC_DONE);
            if (!waitFor(() -> all(syncDone), deadline)) {
                return openFailed();
            }
            if (isotach()) {
                siu.startClock();
                if (me == 0) {
                    // Host 0 resets the system (Isotach report §5.2, pp. 35-36); every host waits until the reset comes
                    // back (I-134).
                    awaitLoop.await(new HostWait() {
                        @Override
                        public boolean isOver() {
                            return host.enqueueBarrierSignalMarker(RESET_BITS, 0, false);
                        }
                    }, waitIdle, AwaitLoop.FOREVER);
                }
                if (!waitFor(() -> signals.resetCount() >= 1, deadline)) {
                    return openFailed();
                }
                barriers.start();
            }
            state(State.OPEN);
            return SUCCESS;
        } catch (IsotachFatalError e) {
            close();
            throw e;
        }
    }

    /** open_net timed out: it may be called again. */
    private int openFailed() {
        state(State.CREATED);
        return FAILURE;
    }

    /** The one place the lifecycle moves; an illegal move is a bug of this class. */
    void state(State next) {
        State current = state;
        if (!current.canBecome(next)) {
            throw new IllegalStateException("Isotach net: no transition from " + current + " to " + next);
        }
        state = next;
    }

    /** The lifecycle's state (for tests). */
    State state() {
        return state;
    }

    private boolean isotach() {
        return open.contains(Interface.ISO_MBM) || open.contains(Interface.ISO_SMM);
    }

    private void broadcastSync(int phase) {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.SYNC_LENGTH]);
        Frame.start(f, Frame.SYNC);
        Frame.u8(f, Frame.O_BYTE2, phase);
        Frame.i32(f, Frame.O_INT4, config.nonisoSlotsPerPeer());
        Frame.i32(f, Frame.O_INT8, config.isoCreditsPerPeer());
        for (int peer = 0; peer < transport.size(); peer++) {
            if (peer != me) {
                siu.sendControl(peer, f, Frame.SYNC_LENGTH);
            }
        }
    }

    private static boolean all(boolean[] flags) {
        for (boolean f : flags) {
            if (!f) {
                return false;
            }
        }
        return true;
    }

    /** Waits on this thread until {@code done} or the deadline ({@link System#nanoTime}); false at the deadline. */
    private boolean waitFor(BooleanSupplier done, long deadline) {
        HostWait wait = new HostWait() {
            @Override
            public boolean isOver() {
                return done.getAsBoolean();
            }
        };
        return awaitLoop.await(wait, waitIdle, Math.max(0L, deadline - System.nanoTime()));
    }

    /**
     * A wait of the host's thread: its condition comes from the modules this thread polls, so it polls them all
     * ({@link #pollOnce}) between looks, and never hands the wait over.
     */
    private abstract class HostWait implements AwaitLoop.Wait {
        @Override
        public int work(Polling polling) {
            pollOnce();
            return 0; // what a pass did is not counted: the strategy goes on from spinning to yielding
        }

        @Override
        public boolean handsOver() {
            return false;
        }
    }

    /** iso_retrieve's wait: until the read's value has come, or the layer closed. */
    private final class RetrieveWait extends HostWait {
        private @Nullable IsoVar lvar;

        @Override
        public boolean isOver() {
            IsoVar v = lvar;
            if (v == null || v.isValid()) {
                return true;
            }
            if (state == State.CLOSED) {
                throw new IllegalStateException("the Isotach layer is closed; the read can no longer return");
            }
            return false;
        }
    }

    public int tryCloseNet() {
        if (!state.isOpen()) {
            return FAILURE;
        }
        pollOnce();
        if (!isotach()) {
            if (state == State.OPEN) {
                if (!noniso.sendBufferEmpty() || noniso.initiateBarrier() != SUCCESS) {
                    return FAILURE;
                }
                state(State.CLOSE_BARRIER);
            }
            // barrier_completed answers 0 once; remember it, then wait for the queue to drain (Isotach report App. J,
            // hostman.c, pp. 181-197): every message a peer sent before its barrier packet is queued here by then.
            if (state == State.CLOSE_BARRIER && noniso.barrierCompleted() == SUCCESS) {
                state(State.DRAINING);
            }
            if (state == State.DRAINING && noniso.deliveryQueueEmpty()) {
                finish();
                return SUCCESS;
            }
            return FAILURE;
        }
        // Isotach: the STRONG shutdown barrier on channel 0 once our sends have drained (Isotach report App. J,
        // hostman.c, pp. 181-197, without A8).
        if (state == State.OPEN) {
            if (!host.sendBuffersEmpty() || !noniso.sendBufferEmpty() || host.midNetIsochron()) {
                return FAILURE;
            }
            if (barriers.mLayerBarrier(0) != SUCCESS) {
                return FAILURE;
            }
            state(State.CLOSE_BARRIER);
        }
        // mLayerCompleted answers true once per completion: asked until then.
        if (state == State.CLOSE_BARRIER && barriers.mLayerCompleted(0)) {
            state(State.DRAINING);
        }
        if (state == State.DRAINING && noniso.deliveryQueueEmpty()) {
            finish();
            return SUCCESS;
        }
        return FAILURE;
    }

    private void finish() {
        if (tmRank >= hosts) {
            MemorySegment f = MemorySegment.ofArray(new byte[Frame.LEAVE_LENGTH]);
            Frame.start(f, Frame.LEAVE);
            Frame.i32(f, Frame.O_INT4, me);
            siu.sendControl(tmRank, f, Frame.LEAVE_LENGTH);
        }
        close();
    }

    /** Closes the net without the closing barrier; idempotent. */
    public void close() {
        if (state != State.CLOSED) {
            state(State.CLOSED);
        }
        host.close();
    }

    // =========================================================================================================
    // A.2
    // =========================================================================================================

    public int poll() {
        if (!state.isOpen()) {
            return FAILURE; // I-131: nothing but the status calls before open_net
        }
        pollOnce();
        return host.hasDelivery() || noniso.hasMessage() ? SUCCESS : NO_MESSAGE;
    }

    /** One pass over every module (the report's iso_poll, plus the barrier poll it forgot, A7). */
    private void pollOnce() {
        try {
            intake.hostPolls();
            Polling.of(transport).poll();
            intake.drainForHost();
            host.receiving();
            noniso.poll();
            if (signals.resetCount() > 1) {
                throw new IsotachFatalError("a reset arrived after initialisation: the layer shuts down"
                        + " (Isotach report §6.4.5, pp. 47-50)");
            }
            if (state.isOpen() && isotach()) {
                barriers.poll();
                if (host.roomForBarrierSignalMarker() && !host.midNetIsochron()) {
                    int bits = signals.takeAccumulated();
                    if (bits != 0) {
                        host.enqueueBarrierSignalMarker(bits, 0, false);
                    }
                }
            }
            host.flow();
            host.executeReferences();
            siu.tick();
        } catch (IsotachFatalError e) {
            close();
            throw e;
        }
    }

    public int getNodeNumber(String hostname) {
        for (int i = 0; i < hosts; i++) {
            if (config.hostName(i).equals(hostname)) {
                return i;
            }
        }
        return -1;
    }

    public int getMyNodeNumber() {
        return me < hosts ? me : -1;
    }

    public int getMaxPayload() {
        return config.maxPayload();
    }

    public int getNumberOfHosts() {
        return hosts;
    }

    public int getMbmVer() {
        return config.mbmVersion();
    }

    public int getSiuState() {
        return 1;
    }

    // =========================================================================================================
    // A.3 / A.4
    // =========================================================================================================

    private boolean usable(Interface i) {
        return state.isOpen() && open.contains(i);
    }

    public int send(int target, MemorySegment data, int size) {
        if (!usable(Interface.NONISO)) {
            return FAILURE;
        }
        int rc = noniso.send(target, data, size);
        pollOnce();
        return rc;
    }

    public int receive(NonisoMessage message) {
        Objects.requireNonNull(message, "message");
        if (!usable(Interface.NONISO)) {
            return FAILURE;
        }
        pollOnce();
        return noniso.receive(message);
    }

    public int initiateBarrier() {
        if (!usable(Interface.NONISO)) {
            return FAILURE;
        }
        int rc = noniso.initiateBarrier();
        pollOnce();
        return rc;
    }

    public int barrierCompleted() {
        if (!usable(Interface.NONISO)) {
            return FAILURE;
        }
        pollOnce();
        return noniso.barrierCompleted();
    }

    // =========================================================================================================
    // A.5 / A.7
    // =========================================================================================================

    public int isoSend(int target, MemorySegment data, int size, boolean last) {
        if (!usable(Interface.ISO_MBM)) {
            return FAILURE;
        }
        int rc = host.isoSend(target, data, size, last);
        pollOnce();
        return rc;
    }

    public int isoReceive(IsoMessage message) {
        Objects.requireNonNull(message, "message");
        if (!state.isOpen() || !isotach()) {
            return FAILURE;
        }
        pollOnce();
        return host.isoReceive(message);
    }

    public int isoEnd() {
        if (!state.isOpen() || !isotach()) {
            return FAILURE;
        }
        int rc = host.isoEnd();
        pollOnce();
        return rc;
    }

    // =========================================================================================================
    // A.6 shared memory
    // =========================================================================================================

    public int isoRead(long address, IsoVar lvar, boolean last) {
        Objects.requireNonNull(lvar, "lvar");
        if (!usable(Interface.ISO_SMM)) {
            return FAILURE;
        }
        int rc = sharedMemoryAccess.read(address, lvar, last);
        pollOnce();
        return rc;
    }

    public long isoRetrieve(IsoVar lvar) {
        Objects.requireNonNull(lvar, "lvar");
        if ((state == State.CREATED || state == State.OPENING) && !lvar.isValid()) {
            throw new IllegalStateException("iso_retrieve before open_net: no read can be outstanding (I-131)");
        }
        // An observer called while polling may retrieve too: the nested wait gets a wait of its own.
        RetrieveWait wait = retrieveWait.lvar == null ? retrieveWait : new RetrieveWait();
        wait.lvar = lvar;
        try {
            awaitLoop.await(wait, waitIdle, AwaitLoop.FOREVER);
        } finally {
            wait.lvar = null;
        }
        return lvar.value();
    }

    public int isoWrite(long address, long value, boolean last) {
        return change(SharedReferenceKind.WRITE, address, value, last);
    }

    public int isoSched(long address, boolean last) {
        return change(SharedReferenceKind.SCHEDULE, address, 0, last);
    }

    public int isoAssign(long address, long value, boolean last) {
        return change(SharedReferenceKind.ASSIGN, address, value, last);
    }

    /** A change: one sRef per copy, all or nothing (Isotach report §3.4.1, pp. 14-18; §6.2.8, pp. 41-45). */
    private int change(SharedReferenceKind kind, long address, long value, boolean last) {
        if (!usable(Interface.ISO_SMM)) {
            return FAILURE;
        }
        int rc = sharedMemoryAccess.change(kind, address, value, last);
        pollOnce();
        return rc;
    }

    /** Observes every shared-memory reference this host's copies execute. */
    public void sharedMemoryObserver(@Nullable SharedMemoryObserver observer) {
        sharedMemory.observer(observer);
    }

    // =========================================================================================================
    // A.8 signals and barriers
    // =========================================================================================================

    public int isoRegisterSignal(int channel) {
        return isotachCall() ? signals.register(channel) : FAILURE;
    }

    public int isoClearSignal(int channel) {
        return isotachCall() ? signals.clear(channel) : FAILURE;
    }

    public int isoSendSignal(int channel) {
        if (!isotachCall() || host.midNetIsochron() || signals.checkSend(channel) != SUCCESS) {
            pollOnce();
            return FAILURE; // I-054
        }
        signals.accumulate(channel);
        if (host.roomForBarrierSignalMarker()) {
            int bits = signals.takeAccumulated();
            host.enqueueBarrierSignalMarker(bits, 0, false);
        }
        pollOnce();
        return SUCCESS;
    }

    public int isoRegisterBarrier(int channel, BarrierMode mode) {
        Objects.requireNonNull(mode, "mode");
        if (!isotachCall()) {
            return FAILURE;
        }
        int rc = barriers.register(channel, mode);
        pollOnce();
        return rc;
    }

    public int isoClearBarrier(int channel) {
        if (!isotachCall()) {
            return FAILURE;
        }
        int rc = barriers.clear(channel);
        pollOnce();
        return rc;
    }

    public int isoBarrier(int channel, BarrierMode mode) {
        Objects.requireNonNull(mode, "mode");
        if (!isotachCall() || host.midNetIsochron()) {
            pollOnce();
            return FAILURE; // I-064
        }
        int rc = barriers.barrier(channel, mode);
        pollOnce();
        return rc;
    }

    private boolean isotachCall() {
        return state.isOpen() && isotach();
    }

    // =========================================================================================================
    // beyond Appendix A
    // =========================================================================================================

    public long logicalTime() {
        return host.closedPulse();
    }

    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>(siu.counters());
        host.counters(m);
        m.putAll(noniso.counters());
        m.putAll(sharedMemory.counters());
        intake.counters(m);
        return m;
    }

    // =========================================================================================================
    // token manager process
    // =========================================================================================================

    /** The token manager as its own rank (TmPlacement.OWN_PROCESS): see {@code IsotachNet.runTokenManager}. */
    public static long runTokenManager(Transport transport, IsotachConfig config, Duration timeout)
            throws TransportException {
        return TokenManagerProcess.run(transport, config, timeout);
    }
}
