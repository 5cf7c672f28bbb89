package org.portals3j.lapi;

import static org.portals3j.lapi.AsyncErrorType.GET_ERR;
import static org.portals3j.lapi.AsyncErrorType.INT_ERR;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;

/**
 * The protocol engine of one context: the origin side of Amsend, Put and Get (package documentation), the
 * dispatcher's role (taking every event of the context's queue, one thread at a time), and the lifecycle; the target
 * side is {@link Target}. The package documentation, "Threads", says which thread holds the role when.
 */
final class Engine {
    final LapiConfig config;
    final Endpoint endpoint;
    final Progress progress;
    final Flow flow;
    final Addresses addresses;
    final Collectives collectives;
    /** Fence's condition, made once. */
    final BooleanSupplier allDelivered;
    private final int inFlight;
    private @Nullable LapiContext owner;
    private @Nullable Target targetSide;
    private @Nullable Completions completionThreads;
    private final ReentrantLock pollLock = new ReentrantLock();
    private final Event pollEvent = new Event();
    private final Event waitEvent = new Event();
    private @Nullable Thread dispatcher;
    private volatile boolean stopping;
    /** Interrupt mode: held by whichever thread takes events now (the dispatcher thread, or a leading waiter). */
    private final ReentrantLock role = new ReentrantLock();
    /** Counts the events deposited and wakes the dispatcher thread for one that no thread is there to take. */
    private final Arrivals arrivals = new Arrivals();
    /** Interrupt mode: the waiting thread that holds or is taking the role from the dispatcher thread, or null. */
    private final AtomicReference<@Nullable Thread> leader = arrivals.leader;

    Engine(Portals portals, LapiConfig config) {
        this.config = config;
        this.progress = new Progress(!config.interruptMode());
        this.endpoint = new Endpoint(portals, config, arrivals);
        endpoint.open();
        this.flow = new Flow(endpoint.tasks, endpoint.self, config.credits(), progress);
        this.addresses = new Addresses(config.addressTableSize(), progress);
        this.collectives = new Collectives(endpoint, flow, progress);
        this.allDelivered = flow::allDelivered;
        this.inFlight = endpoint.tasks * config.credits();
    }

    /** Joins the engine to its context and builds the target side (after construction: they refer back to it). */
    void bind(LapiContext context) {
        owner = context;
        Target t = new Target(this, inFlight);
        targetSide = t;
        completionThreads = new Completions(endpoint.self, config.completionThreads(), inFlight, t::runCompletion);
        progress.poller(this::pollOnce);
        progress.dispatch(config.interruptMode() ? new Leading() : new Blocking());
    }

    /** LAPI_Term has begun stopping the context: no reply is deferred any more. */
    boolean stopping() {
        return stopping;
    }

    LapiContext context() {
        LapiContext c = owner;
        if (c == null) {
            throw new IllegalStateException("the engine is not bound to its context yet");
        }
        return c;
    }

    Target target() {
        Target t = targetSide;
        if (t == null) {
            throw new IllegalStateException("the engine is not bound to its context yet");
        }
        return t;
    }

    Completions completions() {
        Completions c = completionThreads;
        if (c == null) {
            throw new IllegalStateException("the engine is not bound to its context yet");
        }
        return c;
    }

    /** Starts the threads and says hello to every other task (flow control opens to each when it answers). */
    void start() {
        completions().start();
        if (config.interruptMode()) {
            Thread t = new Thread(this::dispatchLoop, "lapi-dispatch-" + endpoint.self);
            t.setDaemon(true);
            dispatcher = t;
            t.start();
        }
        for (int t = 0; t < endpoint.tasks; t++) {
            if (t != endpoint.self) {
                endpoint.sendControl(t, Wire.HELLO, 0, config.credits(), 0, 0);
            }
        }
    }

    // ---- origin side --------------------------------------------------------------------------------------

    /** Amsend after its arguments were checked: eager into one packet, or rendezvous. */
    void amsend(int tgt, long hdrHdl, @Nullable MemorySegment uhdr, int uhdrLen, @Nullable MemorySegment udata,
                long udataLen, long tgtCntr, @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr) {
        boolean eager = uhdrLen + udataLen <= config.packetPayload();
        send(eager ? Wire.AM_EAGER : Wire.AM_RNDV, tgt, hdrHdl, uhdr, uhdrLen, udata, udataLen, tgtCntr, orgCntr,
                cmplCntr, "LAPI_Amsend");
    }

    void put(int tgt, long len, long tgtAddr, @Nullable MemorySegment org, long tgtCntr,
             @Nullable LapiCounter orgCntr, @Nullable LapiCounter cmplCntr) {
        boolean eager = len <= config.packetPayload();
        send(eager ? Wire.PUT_EAGER : Wire.PUT_RNDV, tgt, tgtAddr, null, 0, org, len, tgtCntr, orgCntr, cmplCntr,
                "LAPI_Put");
    }

    private void send(int kind, int tgt, long addr, @Nullable MemorySegment uhdr, int uhdrLen,
                      @Nullable MemorySegment data, long len, long tgtCntr, @Nullable LapiCounter orgCntr,
                      @Nullable LapiCounter cmplCntr, String call) {
        boolean eager = kind == Wire.AM_EAGER || kind == Wire.PUT_EAGER;
        Op op = flow.begin(tgt, false, orgCntr, cmplCntr, call);
        // Eager with no cmpl_cntr: org_cntr moves at the copy below, so no counter waits for the final reply.
        long epoch = eager && cmplCntr == null ? flow.lazy(tgt) : -1;
        Staging s;
        try {
            s = endpoint.take(Wire.HEADER + uhdrLen + (eager ? (int) len : 0));
        } catch (RuntimeException e) {
            flow.abort(op);
            throw e;
        }
        MemorySegment seg = s.segment;
        Wire.write(seg, kind, epoch >= 0 ? Wire.F_LAZY : 0, uhdrLen, 0, op.id, addr, tgtCntr, len);
        if (epoch >= 0) {
            Wire.setInt(seg, Wire.EPOCH, (int) epoch);
        }
        if (uhdrLen > 0 && uhdr != null) {
            MemorySegment.copy(uhdr, 0, seg, Wire.HEADER, uhdrLen);
        }
        if (eager) {
            if (len > 0 && data != null) {
                MemorySegment.copy(data, 0, seg, Wire.HEADER + uhdrLen, len);
            }
            // Copied out: uhdr and udata may be reused (LAPI_Amsend man page, Parameters, org_cntr).
            op.orgDone = true;
            if (orgCntr != null) {
                orgCntr.increment();
            }
        } else if (data != null) {
            try {
                op.exposure = endpoint.expose(data, len, tgt, op.id, true, op);
            } catch (PortalsException e) {
                endpoint.release(s);
                flow.abort(op);
                throw new LapiException(LapiError.MEMORY_EXHAUSTED, call + ": exposing the data failed", e);
            }
        }
        try {
            endpoint.send(s, tgt);
        } catch (LapiException e) {
            MeHandle me = op.exposure;
            if (me != null) {
                endpoint.unlinkQuietly(me);
            }
            flow.abort(op);
            throw e;
        }
    }

    void get(int tgt, long len, long tgtAddr, @Nullable MemorySegment org, long tgtCntr,
             @Nullable LapiCounter orgCntr) {
        Op op = flow.begin(tgt, true, orgCntr, null, "LAPI_Get");
        Staging s;
        try {
            s = endpoint.take(Wire.HEADER);
            if (len > 0 && org != null) {
                op.exposure = endpoint.expose(org, len, tgt, op.id, false, op);
            }
        } catch (RuntimeException e) {
            flow.abort(op);
            throw e instanceof PortalsException p
                    ? new LapiException(LapiError.MEMORY_EXHAUSTED, "LAPI_Get: exposing the buffer failed", p) : e;
        }
        Wire.write(s.segment, Wire.GET_REQ, 0, 0, 0, op.id, tgtAddr, tgtCntr, len);
        try {
            endpoint.send(s, tgt);
        } catch (LapiException e) {
            MeHandle me = op.exposure;
            if (me != null) {
                endpoint.unlinkQuietly(me);
            }
            flow.abort(op);
            throw e;
        }
    }

    /**
     * Fence's wait: asks every target that may hold deferred final replies of this task's for them
     * ({@link Wire#FLUSH}), then waits until every operation's data is delivered.
     */
    void awaitDelivered(String call) {
        flow.fencing(1);
        try {
            for (int t = 0; t < endpoint.tasks; t++) {
                long epoch = flow.startFlush(t);
                if (epoch >= 0) {
                    endpoint.sendControl(t, Wire.FLUSH, 0, (int) epoch, 0, 0);
                }
            }
            progress.await(allDelivered, call);
        } finally {
            flow.fencing(-1);
        }
    }

    /** A COMPLETE reply from {@code src} (remote input). */
    void onComplete(int src, int flags, long msgId) {
        Op op = flow.find(msgId, src);
        if (op == null) {
            if ((flags & Wire.F_FINAL) == 0) {
                return; // a DATA_DONE overtaken by its final reply: nothing left to do
            }
            report(src, INT_ERR, "a reply for an operation this task does not have in flight (0x"
                    + Long.toHexString(msgId) + "): ignored", null);
            return;
        }
        if ((flags & Wire.F_DATA_DONE) != 0 && !op.get) {
            flow.delivered(op);
        }
        if ((flags & Wire.F_FINAL) == 0) {
            return;
        }
        op.finalSeen = true;
        op.finalFlags = flags;
        MeHandle me = op.exposure;
        if ((flags & Wire.F_FAILED) != 0) {
            if (me != null && !op.exposureDone) {
                endpoint.unlinkQuietly(me);
            }
            op.exposureDone = true;
            if (op.get) {
                report(src, GET_ERR, "LAPI_Get: the target refused the address; no data was delivered", null);
            }
        }
        if (me == null || op.exposureDone) {
            finish(op);
        }
    }

    /** The exposed buffer of {@code op} was used: rendezvous data fetched, or Get data arrived. */
    void onExposureUsed(Op op) {
        if (op.exposureDone || op.tgt < 0) {
            return;
        }
        op.exposureDone = true;
        if (!op.orgDone) {
            op.orgDone = true;
            if (op.orgCntr != null) {
                op.orgCntr.increment();
            }
        }
        if (op.get) {
            flow.delivered(op);
        }
        if (op.finalSeen) {
            finish(op);
        }
    }

    /** The end of an operation: org_cntr (if not yet, O-10), then cmpl_cntr, then the credit comes back. */
    private void finish(Op op) {
        if (!op.orgDone) {
            op.orgDone = true;
            if (op.orgCntr != null) {
                op.orgCntr.increment();
            }
        }
        if ((op.finalFlags & Wire.F_CMPL) != 0 && op.cmplCntr != null) {
            op.cmplCntr.increment();
        }
        flow.end(op);
    }

    // ---- dispatcher ---------------------------------------------------------------------------------------

    /**
     * The dispatcher thread: parks until an event waits in the queue while no thread holds the role, then takes the
     * role, takes the events with PtlEQGet until the queue is empty or a waiting thread asks for the role, and gives
     * it up again. It never blocks in PtlEQWait holding the role, so a waiter takes the role without recalling it
     * (no interrupt, no wake-up event): at most it waits for the event being handled.
     */
    private void dispatchLoop() {
        Thread me = Thread.currentThread();
        while (!stopping) {
            awaitArrival(me);
            if (stopping || !role.tryLock()) {
                continue; // a leader holds the role: it takes the events
            }
            boolean failed;
            try {
                progress.dispatching(me);
                failed = drain();
            } finally {
                progress.dispatching(null);
                role.unlock();
            }
            if (failed) {
                return;
            }
        }
    }

    /**
     * The dispatcher thread, holding the role: handles the queue's events until it is empty or a waiting thread wants
     * the role; true if the queue failed (the dispatcher stops).
     */
    private boolean drain() {
        while (!stopping && leader.get() == null) {
            long seen = arrivals.deposited();
            ReturnCode rc;
            try {
                rc = endpoint.portals.eqGet(endpoint.eq, waitEvent);
            } catch (PortalsException e) {
                if (!stopping) {
                    report(-1, INT_ERR, queueFailure("the dispatcher") + "; the dispatcher stops", e);
                }
                return true;
            }
            if (rc == ReturnCode.EQ_EMPTY) {
                arrivals.settle(seen); // events a full queue lost were counted, never taken
                return false;
            }
            progress.dispatcherTook();
            handle(rc, waitEvent);
        }
        return false;
    }

    /**
     * The dispatcher thread parks until an event comes while no thread holds the role ({@link Arrivals}): a
     * ping-pong's next wait takes the role without waking it, and a message that comes once no thread waits has its
     * handlers run as soon as the transport delivers it.
     */
    private void awaitArrival(Thread me) {
        arrivals.parking(me);
        try {
            while (!stopping && (leader.get() != null || !arrivals.pending())) {
                LockSupport.park(this);
            }
        } finally {
            arrivals.parking(null);
        }
    }

    /** A waiting thread, holding the role: waits for one event (or a wake-up) and handles it. */
    private void handleNext(String call) throws InterruptedException {
        ReturnCode rc;
        try {
            rc = endpoint.portals.eqWaitInterruptibly(endpoint.eq, pollEvent);
        } catch (PortalsException e) {
            if (stopping || endpoint.closed()) {
                throw new LapiException(LapiError.HNDL_INVALID, call + ": the context was terminated while it waited",
                        e);
            }
            throw new LapiException(LapiError.UNKNOWN, queueFailure(call), e);
        }
        handle(rc, pollEvent);
    }

    /** Why {@code who}'s wait on the event queue failed: Portals finalised under the context, or the queue itself. */
    private String queueFailure(String who) {
        return endpoint.interfaceGone()
                ? who + ": Portals was finalised (PtlFini, PtlNIFini, or the process exiting) before LAPI_Term"
                : who + ": waiting on the event queue failed";
    }

    private void wake() {
        if (!endpoint.wake()) {
            progress.woken();
        }
    }

    /**
     * Interrupt mode: a waiting thread takes the role (from the dispatcher thread once it has handled the event in
     * hand) and gives it back after; one waiting thread leads at a time.
     */
    private final class Leading implements Progress.Dispatch {
        @Override
        public boolean held() {
            return role.isLocked();
        }

        @Override
        public boolean take() throws InterruptedException {
            Thread me = Thread.currentThread();
            if (leader.get() != null || !leader.compareAndSet(null, me)) {
                return false;
            }
            // The dispatcher thread, if it holds the role, is between events: it gives the role up after this one.
            try {
                role.lockInterruptibly();
            } catch (InterruptedException e) {
                leader.set(null);
                arrivals.wakeIfPending();
                throw e;
            }
            progress.dispatching(me);
            return true;
        }

        @Override
        public void handleNext(String call) throws InterruptedException {
            Engine.this.handleNext(call);
        }

        @Override
        public void giveBack() {
            progress.dispatching(null);
            role.unlock();
            leader.set(null);
            arrivals.wakeIfPending();
        }

        @Override
        public void wake() {
            Engine.this.wake();
        }
    }

    /** Polling mode: the thread that polls may block in PtlEQWait when idle; one at a time (the poll lock). */
    private final class Blocking implements Progress.Dispatch {
        @Override
        public boolean held() {
            return pollLock.isLocked();
        }

        @Override
        public boolean take() {
            if (endpoint.closed() || !pollLock.tryLock()) {
                return false;
            }
            progress.dispatching(Thread.currentThread());
            return true;
        }

        @Override
        public void handleNext(String call) throws InterruptedException {
            Engine.this.handleNext(call);
        }

        @Override
        public void giveBack() {
            progress.dispatching(null);
            pollLock.unlock();
        }

        @Override
        public void wake() {
            Engine.this.wake();
        }
    }

    /** Polling mode: handles what is in the queue now (a bounded batch); the number of events handled. */
    int pollOnce() {
        if (endpoint.closed() || !pollLock.tryLock()) {
            return 0;
        }
        int n = 0;
        try {
            progress.dispatching(Thread.currentThread());
            while (n < 256) {
                ReturnCode rc = endpoint.portals.eqGet(endpoint.eq, pollEvent);
                if (rc == ReturnCode.EQ_EMPTY) {
                    break;
                }
                handle(rc, pollEvent);
                n++;
            }
        } catch (PortalsException e) {
            if (!endpoint.closed()) {
                report(-1, INT_ERR, "polling the event queue failed", e);
            }
        } finally {
            progress.dispatching(null);
            pollLock.unlock();
        }
        return n;
    }

    private void handle(ReturnCode rc, Event e) {
        arrivals.took();
        if (rc == ReturnCode.EQ_DROPPED) {
            report(-1, INT_ERR, "the event queue overflowed and lost events; operations may never complete", null);
        }
        try {
            dispatch(e);
        } catch (RuntimeException ex) {
            report(-1, INT_ERR, "handling a " + e.type() + " event failed", ex);
        }
    }

    private void dispatch(Event e) {
        Object up = e.userPtr();
        EventKind kind = e.type();
        switch (kind) {
            case PUT_END -> {
                if (up instanceof RingBuffer rb) {
                    target().onPacket(rb, e.offset(), e.mlength(), e.initiatorNid());
                } else if (up instanceof Op op) {
                    onExposureUsed(op);
                } else if (up == Wire.WAKE) {
                    progress.woken();
                }
            }
            case UNLINK -> {
                if (up instanceof RingBuffer rb) {
                    endpoint.attach(rb);
                }
            }
            case SEND_END -> {
                if (up instanceof Incoming in) {
                    target().onReplySent(in);
                }
            }
            case GET_END -> {
                if (up instanceof Op op) {
                    onExposureUsed(op);
                }
            }
            case REPLY_END -> {
                if (up instanceof Incoming in) {
                    target().onFetched(in);
                }
            }
            case SEND_FAIL, PUT_FAIL, GET_FAIL, REPLY_FAIL -> onFailure(e, up);
            default -> {
                // START events and acknowledgements carry nothing the layer needs.
            }
        }
    }

    private void onFailure(Event e, @Nullable Object up) {
        report(-1, INT_ERR, "Portals reported " + e.type() + " (" + e.niFailType() + ") on " + up, null);
    }

    /** Tells the error listener; a listener that throws is ignored. */
    void report(int src, AsyncErrorType type, String what, @Nullable Throwable cause) {
        try {
            config.errorListener().onAsyncError(context(), type, src, what, cause);
        } catch (RuntimeException ignored) {
            // A listener's failure must not stop the dispatcher (our choice).
        }
    }

    /** Stops the threads and releases the Portals resources (after the caller's fence). */
    void stop() {
        stopping = true;
        Completions c = completionThreads;
        if (c != null) {
            c.stop(5_000);
        }
        Target t0 = targetSide;
        if (t0 != null) {
            t0.flushAll();
        }
        if (!endpoint.drainSends(5_000)) {
            report(-1, INT_ERR,
                    "LAPI_Term: some packets had not left after 5 s; their staging buffers are unlinked anyway",
                    null);
        }
        endpoint.close();
        progress.close();
        Thread t = dispatcher;
        if (t != null) {
            LockSupport.unpark(t); // if it is parked
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
