package org.portals3j.portals.internal.engine;

import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * One network interface of a process (Portals 3.2 spec §3.3.2), from PtlNIInit to PtlNIFini ({@link State}): its Portal
 * table, access control table, objects, status registers, event logging ({@link #post}) and unlink rules; under the
 * lock.
 */
final class NetworkInterfaceState {
    /** Passed as {@code link} to {@link #post}: the event links to itself (START events and ACK, A-51). */
    static final long SELF_LINK = -1L;

    final int libraryId;
    final int index;
    /** Made by a Portals 3.3 library. */
    final boolean dialect33;
    private final HandlerCalls handlers;
    /** The engine's wakes to do once its lock is released. */
    private final Wakeups wakeups;
    /** Where this interface is in its life; changed only by {@link #transition}. */
    private State state = State.UNINITIALISED;
    /** Generation of this interface's handle; bumped by PtlNIFini, so old handles die. */
    int incarnation;
    int pid;
    int uid;
    /** The job id of this process, which is also the job id of every process that can reach it (3.3). */
    int jid;
    NiLimits limits = NiLimits.DEFAULT;
    MatchList[] portals = new MatchList[0];
    AccessControlEntry[] acl = new AccessControlEntry[0];
    final SlotTable<MatchEntryState> mes = new SlotTable<>(MatchEntryState::new);
    final SlotTable<MemoryDescriptorState> mds = new SlotTable<>(MemoryDescriptorState::new);
    final SlotTable<EventQueueState> eqs = new SlotTable<>(EventQueueState::new);
    /** Status registers written on the receive path (by whichever thread delivers to this interface). */
    final long[] registers = new long[StatusRegister.COUNT];
    /**
     * Bytes sent by this process's own puts: written by the application's threads, so kept out of
     * {@link #registers}, whose cache line the delivering thread writes. Read as part of BYTES_SENT.
     */
    final SendCounter putBytes = new SendCounter();
    /** The event sequence, on cache lines of its own (see {@link EventSequence}). */
    private final EventSequence eventSequence = new EventSequence();
    /** Threads in Portals 3.3 {@code PtlEQPoll} on this interface's queues (a list through the waiters). */
    private @Nullable PollWaiter firstPoller;

    /**
     * The event sequence counter, written by whichever thread logs an event (mostly the one delivering to this
     * interface): padded so that it does not share a cache line with the fields the interface's own threads read
     * on every call.
     */
    static final class EventSequence extends CacheLinePadding {
        long nextSequence = 1;
        long q0, q1, q2, q3, q4, q5, q6, q7;
    }

    NetworkInterfaceState(int libraryId, int index, Dialect dialect, HandlerCalls handlers, Wakeups wakeups) {
        this.libraryId = libraryId;
        this.index = index;
        this.dialect33 = dialect == Dialect.PORTALS_3_3;
        this.handlers = handlers;
        this.wakeups = wakeups;
    }

    // ---- life cycle ---------------------------------------------------------------------------

    /** The life of an interface: PtlNIInit makes it live, PtlNIFini ends it, and PtlNIInit may start it again. */
    enum State {
        /** Never initialised: no handle names it. */
        UNINITIALISED,
        /** Initialised by PtlNIInit: its handle and its objects' handles are valid. */
        LIVE,
        /** Finalised by PtlNIFini: every handle of its last incarnation is dead. */
        FINALISED;

        /** Whether an interface in this state may go to {@code next}. */
        boolean canBecome(State next) {
            return switch (this) {
                case UNINITIALISED, FINALISED -> next == LIVE;
                case LIVE -> next == FINALISED;
            };
        }
    }

    State state() {
        return state;
    }

    /** Whether PtlNIInit has made this interface live and PtlNIFini has not ended it since. */
    boolean isLive() {
        return state == State.LIVE;
    }

    /**
     * The one place the state changes. The engine calls {@link #init} only on an interface that is not live and
     * {@link #teardown} only on a live one: any other transition is a bug, refused with IllegalStateException.
     */
    void transition(State next) {
        if (!state.canBecome(next)) {
            throw new IllegalStateException("network interface " + index + " cannot go from " + state + " to " + next);
        }
        state = next;
    }

    void init(int newPid, int newUid, int newJid, NiLimits newLimits, boolean aclEntryZero) {
        pid = newPid;
        uid = newUid;
        jid = newJid;
        limits = newLimits;
        portals = new MatchList[newLimits.maxPtableIndex() + 1];
        for (int i = 0; i < portals.length; i++) {
            portals[i] = new MatchList();
        }
        acl = new AccessControlEntry[newLimits.maxAtableIndex() + 1];
        for (int i = 0; i < acl.length; i++) {
            acl[i] = new AccessControlEntry();
        }
        if (aclEntryZero) {
            // Entry 0 lets every process of the same user id in, on any portal (Portals 3.2 spec §3.10, A-29).
            acl[0].set(-1, -1, newUid, AccessControlEntry.JID_ANY, -1);
        }
        mes.limit(newLimits.maxMatchEntries());
        mds.limit(newLimits.maxMemDescriptors());
        eqs.limit(newLimits.maxEventQueues());
        Arrays.fill(registers, 0L);
        putBytes.value = 0;
        transition(State.LIVE);
    }

    /** PtlNIFini: every object dies, waiters wake with PTL_INV_EQ, later completions are ignored. */
    void teardown() {
        eqs.forEachCreated(q -> {
            if (q.live) {
                q.discard();
            }
        });
        // Pollers wake, find their queues gone (PTL_INV_EQ) and leave; the list is emptied for them.
        for (PollWaiter w = firstPoller; w != null; ) {
            PollWaiter next = w.next;
            w.registeredOn = null;
            w.prev = null;
            w.next = null;
            w.signal();
            w = next;
        }
        firstPoller = null;
        mds.forEachCreated(MemoryDescriptorState::reset);
        mes.clear();
        mds.clear();
        eqs.clear();
        for (MatchList list : portals) {
            list.clear();
        }
        portals = new MatchList[0];
        acl = new AccessControlEntry[0];
        transition(State.FINALISED);
        incarnation = (incarnation + 1) & HandleCodec.GENERATION_MASK;
    }

    long handle() {
        return HandleCodec.encode(HandleCodec.KIND_NI, libraryId, index, 0, incarnation);
    }

    long handleOf(MatchEntryState me) {
        return HandleCodec.encode(HandleCodec.KIND_ME, libraryId, index, me.slot, me.generation);
    }

    long handleOf(EventQueueState q) {
        return HandleCodec.encode(HandleCodec.KIND_EQ, libraryId, index, q.slot, q.generation);
    }

    long handleOf(MemoryDescriptorState md) {
        return HandleCodec.encode(HandleCodec.KIND_MD, libraryId, index, md.slot, md.generation);
    }

    // ---- lookups (null = no such live object on this interface) ------------------------------

    private boolean names(long handle, int kind) {
        return state == State.LIVE && HandleCodec.kind(handle) == kind && HandleCodec.library(handle) == libraryId
                && HandleCodec.iface(handle) == index;
    }

    @Nullable MatchEntryState lookupMe(long handle) {
        return names(handle, HandleCodec.KIND_ME)
                ? mes.lookup(HandleCodec.slot(handle), HandleCodec.generation(handle)) : null;
    }

    @Nullable MemoryDescriptorState lookupMd(long handle) {
        return names(handle, HandleCodec.KIND_MD)
                ? mds.lookup(HandleCodec.slot(handle), HandleCodec.generation(handle)) : null;
    }

    @Nullable EventQueueState lookupEq(long handle) {
        return names(handle, HandleCodec.KIND_EQ)
                ? eqs.lookup(HandleCodec.slot(handle), HandleCodec.generation(handle)) : null;
    }

    /** The live match entry {@code handle} names; {@code PTL_INV_ME} if it names none. */
    MatchEntryState liveMe(long handle) {
        MatchEntryState me = lookupMe(handle);
        if (me == null) {
            throw new PortalsException(ReturnCode.INV_ME, "no live match entry has handle 0x"
                    + Long.toHexString(handle));
        }
        return me;
    }

    /** The live memory descriptor {@code handle} names; {@code PTL_INV_MD} if it names none. */
    MemoryDescriptorState liveMd(long handle) {
        MemoryDescriptorState md = lookupMd(handle);
        if (md == null) {
            throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x"
                    + Long.toHexString(handle));
        }
        return md;
    }

    // ---- objects ------------------------------------------------------------------------------

    /** A new MD from {@code value} (already validated), or null if the interface is out of MDs. */
    @Nullable MemoryDescriptorState newMd(MemoryDescriptor value, @Nullable EventQueueState queue) {
        MemoryDescriptorState md = mds.allocate();
        if (md == null) {
            return null;
        }
        md.reset();
        md.dialect33 = dialect33;
        md.set(value, queue);
        md.handle = handleOf(md);
        return md;
    }

    void removeMe(MatchEntryState me) {
        portals[me.portal].remove(me);
        me.md = null;
        mes.free(me);
    }

    /**
     * Unlinks an MD: posts UNLINK first if asked (automatic unlinks only, Portals 3.2 spec §3.9.1), detaches it from
     * its entry, and removes the entry too if the entry was made with {@code PTL_UNLINK} (Portals 3.2 spec §3.7.1.2,
     * The MD's handles die at once; its slot is freed once no operation is pending on it.
     *
     * @param cause the sequence of the event that caused the unlink, or 0
     */
    void unlinkMd(MemoryDescriptorState md, boolean postEvent, long cause, int initNid, int initPid, int initUid,
                  int portal, long bits, long rlength, long mlength, long offset) {
        if (postEvent) {
            post(md, EventKind.UNLINK, cause, initNid, initPid, initUid, portal, bits, rlength, mlength, offset,
                    0L, NiFailType.OK);
        }
        MatchEntryState me = md.me;
        md.me = null;
        if (me != null) {
            me.md = null;
            if (me.unlink == Unlink.UNLINK) {
                removeMe(me);
            }
        }
        mds.retire(md);
        if (md.pending == 0) {
            freeMd(md);
        } else {
            md.zombie = true;
        }
    }

    /** Releases a slot: the object forgets the user's memory so it can be collected. */
    void freeMd(MemoryDescriptorState md) {
        md.reset();
        mds.free(md);
    }

    /** One pending operation on {@code md} finished; a zombie MD is freed with its last one. */
    void releasePending(MemoryDescriptorState md) {
        md.pending--;
        if (md.zombie && md.pending == 0) {
            freeMd(md);
        }
    }

    /**
     * The automatic unlink after a successful operation (Portals 3.2 spec §3.8.2.2): PTL_UNLINK and now inactive. In
     * 3.2 only an attached MD can have PTL_UNLINK (PtlMDBind has no unlink argument, A-50); a 3.3 PtlMDBind takes
     * one (3.3 &sect;3.10, {@code PtlMDBind(ni, md, unlink_op, &handle)}), so a bound 3.3 MD unlinks too.
     */
    void autoUnlinkIfInactive(MemoryDescriptorState md, long cause, int initNid, int initPid, int initUid,
                              int portal, long bits, long rlength, long mlength, long offset) {
        if (md.live && (md.me != null || md.bound) && md.unlinkOp == Unlink.UNLINK && md.inactive()) {
            unlinkMd(md, true, cause, initNid, initPid, initUid, portal, bits, rlength, mlength, offset);
        }
    }

    // ---- events -------------------------------------------------------------------------------

    /**
     * Logs an event on {@code md}'s queue, if it has one (Portals 3.2 spec §3.8.1.1): the fields as the package
     * documentation's table gives them,
     * the MD's state now (Portals 3.2 spec §3.9.4), a sequence unique on this interface.
     *
     * <p>Portals 3.3 (options reach here only through a 3.3 library):
     * <ul>
     *   <li>{@code PTL_MD_EVENT_START_DISABLE} drops {@code *_START} events and
     *       {@code PTL_MD_EVENT_END_DISABLE} drops {@code *_END} events, before they take a sequence
     *       number (3.3 &sect;3.10.1). ACK and UNLINK are neither and are still logged. (The reference
     *       implementation, {@code p3lib/move.c}, also drops ACK and UNLINK when both options are set;
     *       the option names say START and END, and that is what is followed here.)</li>
     *   <li>3.3 has no {@code *_FAIL} kinds (3.3 &sect;3.11.1, twelve kinds): a failed operation ends with
     *       its END event, {@code ni_fail_type} saying why (reference implementation,
     *       {@code lib_finalize(ni, msg, fail_type)} posting the END kind).</li>
     *   <li>The queue numbers the event itself ({@link EventQueueState#ownSequence}); an event the full
     *       ring loses still takes its number.</li>
     *   <li>The queue's handler, if any, runs with the event (also one the ring loses), before the event
     *       can be taken.</li>
     * </ul>
     *
     * @return the event's sequence, or 0 if the MD has no event queue or the event is disabled
     */
    long post(MemoryDescriptorState md, EventKind kind, long link, int initNid, int initPid, int initUid,
              int portal, long bits, long rlength, long mlength, long offset, long hdrData, NiFailType fail) {
        EventQueueState q = md.eventQueue();
        if (q == null) {
            return 0;
        }
        if (md.options > MdOption.ALL_BITS) {
            // 3.3 option bits: only a 3.3 library accepts them
            if ((md.options & MdOption.EVENT_START_DISABLE.bit()) != 0 && kind.isStart()) {
                return 0;
            }
            if ((md.options & MdOption.EVENT_END_DISABLE.bit()) != 0 && (isEnd(kind) || kind.isFail())) {
                return 0;
            }
        }
        if (dialect33 && kind.isFail()) {
            kind = endOf(kind);
        }
        long sequence = q.ownSequence ? q.nextSequence++ : eventSequence.nextSequence++;
        Event slot = q.reserve();
        Event e = slot != null ? slot : q.handlerScratch();
        if (e == null) {
            registers[StatusRegister.EVENTS_DROPPED.index()]++;
            return sequence;
        }
        e.type = kind;
        e.initiatorNid = initNid;
        e.initiatorPid = initPid;
        e.uid = initUid;
        e.jid = jid;
        e.portal = portal;
        e.matchBits = bits;
        e.rlength = rlength;
        e.mlength = mlength;
        e.offset = offset;
        e.mdHandle = md.handle;
        e.mdStart = md.start;
        e.mdLength = md.length;
        e.mdThreshold = md.threshold;
        e.mdMaxOffset = md.maxOffset;
        e.mdMaxSize = md.maxSize;
        e.mdOptions = md.options;
        e.mdUserPtr = md.userPtr;
        e.mdEventq = md.eqHandle;
        e.hdrData = hdrData;
        e.link = link == SELF_LINK ? sequence : link;
        e.niFailType = fail;
        e.sequence = sequence;
        EventHandler handler = q.handler;
        if (handler != null) {
            handlers.run(handler, e);
        }
        if (slot == null) {
            registers[StatusRegister.EVENTS_DROPPED.index()]++; // the handler saw it; the ring lost it
            return sequence;
        }
        if (q.commit(wakeups) && firstPoller != null) {
            wakePollers();
        }
        return sequence;
    }

    private static boolean isEnd(EventKind kind) {
        return kind == EventKind.PUT_END || kind == EventKind.GET_END || kind == EventKind.REPLY_END
                || kind == EventKind.SEND_END || kind == EventKind.GETPUT_END;
    }

    /** The END kind of a FAIL kind (3.3 reports failures in END events). */
    private static EventKind endOf(EventKind fail) {
        return switch (fail) {
            case GET_FAIL -> EventKind.GET_END;
            case PUT_FAIL -> EventKind.PUT_END;
            case REPLY_FAIL -> EventKind.REPLY_END;
            case SEND_FAIL -> EventKind.SEND_END;
            default -> fail;
        };
    }

    // ---- PtlEQPoll waiters (Portals 3.3) ----------------------------------------------------------

    void addPoller(PollWaiter w) {
        w.registeredOn = this;
        w.prev = null;
        w.next = firstPoller;
        if (firstPoller != null) {
            firstPoller.prev = w;
        }
        firstPoller = w;
    }

    /** Takes {@code w} off the list, if it is still on it (a teardown empties the list itself). */
    void removePoller(PollWaiter w) {
        if (w.registeredOn != this) {
            return;
        }
        PollWaiter prev = w.prev;
        PollWaiter next = w.next;
        if (prev == null) {
            firstPoller = next;
        } else {
            prev.next = next;
        }
        if (next != null) {
            next.prev = prev;
        }
        w.registeredOn = null;
        w.prev = null;
        w.next = null;
    }

    /** An event landed in a queue (or a queue was freed): every poller looks at its queues again. */
    void wakePollers() {
        for (PollWaiter w = firstPoller; w != null; w = w.next) {
            w.signal();
        }
    }

    /** The value of status register {@code index}. */
    long register(int index) {
        long value = registers[index];
        return index == StatusRegister.BYTES_SENT.index() ? value + putBytes.value : value;
    }

    /** A counter alone on its cache lines (padding on both sides). */
    static final class SendCounter extends CacheLinePadding {
        long value;
        long q0, q1, q2, q3, q4, q5, q6, q7;
    }

    /** Counts a discarded message (Portals 3.2 spec §4.2) under {@code PTL_SR_DROP_COUNT} and its reason. */
    void drop(StatusRegister reason) {
        registers[StatusRegister.DROP_COUNT.index()]++;
        registers[reason.index()]++;
    }
}
