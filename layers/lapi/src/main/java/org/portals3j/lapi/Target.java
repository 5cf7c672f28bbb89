package org.portals3j.lapi;

import static org.portals3j.lapi.AsyncErrorType.AM_ERR;
import static org.portals3j.lapi.AsyncErrorType.GET_ERR;
import static org.portals3j.lapi.AsyncErrorType.INT_ERR;
import static org.portals3j.lapi.AsyncErrorType.PUT_ERR;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.PortalsException;

/**
 * The target side: what the dispatcher does with each packet of the receive ring (remote input, every field
 * checked), and the steps after it: header handler, copy or fetch, completion handler, tgt_cntr, reply (the order
 * the LAPI_Amsend man page gives in its Description).
 */
final class Target {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]).asReadOnly();

    private final Engine engine;
    private final Endpoint endpoint;
    private final Incoming[] pool;
    private int poolCount;
    private final Reply reply = new Reply();

    Target(Engine engine, int capacity) {
        this.engine = engine;
        this.endpoint = engine.endpoint;
        pool = new Incoming[capacity];
        for (int i = 0; i < capacity; i++) {
            pool[i] = new Incoming();
        }
        poolCount = capacity;
    }

    private synchronized @Nullable Incoming take() {
        return poolCount == 0 ? null : pool[--poolCount];
    }

    private synchronized void release(Incoming in) {
        in.reset();
        pool[poolCount++] = in;
    }

    /** A packet at {@code offset} of {@code rb}, {@code mlength} bytes, from node {@code nid}. */
    void onPacket(RingBuffer rb, long offset, long mlength, int nid) {
        int src = endpoint.taskOfNid(nid);
        MemorySegment seg = rb.segment;
        if (src < 0 || mlength < Wire.HEADER || offset < 0 || offset + mlength > seg.byteSize()) {
            engine.report(src, INT_ERR, "a packet of " + mlength + " bytes from node " + nid
                    + " is not the layer's: dropped",
                    null);
            return;
        }
        int kind = Wire.kind(seg, offset);
        int aux = Wire.getInt(seg, offset, Wire.AUX);
        long msgId = Wire.getLong(seg, offset, Wire.MSG_ID);
        long ack = Wire.getLong(seg, offset, Wire.ACK);
        if (ack != 0) {
            engine.onComplete(src, Wire.F_FINAL | Wire.F_DATA_DONE, ack);
        }
        switch (kind) {
            case Wire.AM_EAGER, Wire.AM_RNDV, Wire.PUT_EAGER, Wire.PUT_RNDV, Wire.GET_REQ ->
                    onRequest(rb, offset, mlength, src, kind);
            case Wire.COMPLETE -> engine.onComplete(src, Wire.flags(seg, offset), msgId);
            case Wire.HELLO, Wire.HELLO_ACK -> {
                engine.flow.grant(src, aux);
                if (kind == Wire.HELLO) {
                    endpoint.sendControl(src, Wire.HELLO_ACK, 0, engine.config.credits(), 0, 0);
                }
            }
            case Wire.BARRIER_ENTER -> {
                if (endpoint.self == 0) {
                    engine.collectives.onEnter(src, aux);
                }
            }
            case Wire.BARRIER_RELEASE -> engine.collectives.onRelease(aux);
            case Wire.ADDRX -> {
                if (!engine.collectives.onValue(src, aux, Wire.getLong(seg, offset, Wire.ADDR))) {
                    engine.report(src, INT_ERR, "a duplicate LAPI_Address_init value: ignored", null);
                }
            }
            case Wire.FLUSH -> {
                endpoint.acks.flushed(src, aux);
                flush(src);
            }
            case Wire.ACKS -> onAcks(seg, offset, mlength, src, aux);
            default -> engine.report(src, INT_ERR, "a packet of unknown kind " + kind + ": dropped", null);
        }
    }

    /** The final replies {@code src} had deferred: {@code n} operation ids after the header. */
    private void onAcks(MemorySegment seg, long offset, long mlength, int src, int n) {
        if (n < 0 || Wire.HEADER + 8L * n > mlength) {
            engine.report(src, INT_ERR, "a list of " + n + " replies that does not fit its packet of " + mlength
                    + " bytes: dropped", null);
            return;
        }
        for (int i = 0; i < n; i++) {
            engine.onComplete(src, Wire.F_FINAL | Wire.F_DATA_DONE,
                    Wire.getLong(seg, offset, Wire.HEADER + 8L * i));
        }
    }

    /** Sends every final reply deferred for {@code src} now (as many packets as they need). */
    void flush(int src) {
        Acks acks = endpoint.acks;
        int most = (endpoint.maxPacket - Wire.HEADER) / 8;
        while (acks.owed(src) > 0) {
            Staging s = endpoint.take(Wire.HEADER + 8 * Math.min(most, acks.owed(src)));
            int n = acks.drainInto(src, s.segment, Wire.HEADER, (int) ((s.segment.byteSize() - Wire.HEADER) / 8));
            if (n == 0) {
                endpoint.release(s);
                return;
            }
            Wire.write(s.segment, Wire.ACKS, 0, 0, n, 0, 0, 0, 0);
            try {
                endpoint.send(s, src);
            } catch (LapiException e) {
                engine.report(src, INT_ERR, "sending " + n + " deferred completion replies failed", e);
                return;
            }
        }
    }

    /** LAPI_Term: every deferred reply goes now. */
    void flushAll() {
        for (int t = 0; t < endpoint.tasks; t++) {
            flush(t);
        }
    }

    private void onRequest(RingBuffer rb, long offset, long mlength, int src, int kind) {
        MemorySegment seg = rb.segment;
        int uhdrLen = Wire.getInt(seg, offset, Wire.UHDR_LEN);
        long len = Wire.getLong(seg, offset, Wire.LEN);
        boolean eager = kind == Wire.AM_EAGER || kind == Wire.PUT_EAGER;
        long needed = Wire.HEADER + (long) uhdrLen + (eager ? len : 0);
        if (uhdrLen < 0 || len < 0 || needed > mlength || (kind != Wire.AM_EAGER && kind != Wire.AM_RNDV
                && uhdrLen != 0)) {
            engine.report(src, typeOf(kind), "a request whose lengths do not fit its packet (uhdr " + uhdrLen
                    + ", data " + len + ", packet " + mlength + "): dropped", null);
            return;
        }
        Incoming in = take();
        if (in == null) {
            engine.report(src, typeOf(kind), "a request beyond the credits this task granted: dropped", null);
            return;
        }
        in.src = src;
        in.kind = kind;
        in.msgId = Wire.getLong(seg, offset, Wire.MSG_ID);
        in.tgtCntr = Wire.getLong(seg, offset, Wire.TGT_CNTR);
        in.len = len;
        in.lazy = (Wire.flags(seg, offset) & Wire.F_LAZY) != 0 && eager;
        in.epoch = Wire.getInt(seg, offset, Wire.EPOCH);
        long addr = Wire.getLong(seg, offset, Wire.ADDR);
        switch (kind) {
            case Wire.AM_EAGER, Wire.AM_RNDV -> onAmsend(rb, offset, in, addr, uhdrLen, eager);
            case Wire.PUT_EAGER, Wire.PUT_RNDV -> onPut(seg, offset, in, addr, eager);
            default -> onGet(in, addr);
        }
    }

    private void onAmsend(RingBuffer rb, long offset, Incoming in, long hdrHdl, int uhdrLen, boolean eager) {
        HeaderHandler handler = engine.addresses.resolveHandler(hdrHdl, engine.config.resolver());
        if (handler == null) {
            engine.report(in.src, AM_ERR, "LAPI_Amsend names header handler " + describe(hdrHdl)
                    + ", which this task does"
                    + " not have (O-09): the message is dropped, the origin's cmpl_cntr still moves", null);
            in.unresolved = true;
            in.failed = !eager;
            finish(in);
            return;
        }
        long dataOffset = offset + Wire.HEADER + uhdrLen;
        MemorySegment uhdr = uhdrLen == 0 ? EMPTY : rb.readOnly.asSlice(offset + Wire.HEADER, uhdrLen);
        reply.start(in.len, in.src, eager ? rb.readOnly : null, dataOffset);
        MemorySegment buffer = null;
        try {
            buffer = handler.onHeader(engine.context(), uhdr, reply);
        } catch (Throwable t) {
            engine.report(in.src, AM_ERR, "the header handler threw (O-06): the data is discarded", t);
            in.failed = true;
        }
        reply.finish(in);
        if (in.ctlFlags != 0 && !in.failed) {
            buried(in);
        }
        if (in.len > 0 && !in.failed) {
            if (buffer == null) {
                if (!eager) {
                    engine.report(in.src, AM_ERR, "the header handler returned no buffer for a multi-packet message of "
                            + in.len + " bytes (O-06): the data is discarded", null);
                    in.failed = true;
                }
            } else if (buffer.byteSize() < in.len || buffer.isReadOnly()) {
                engine.report(in.src, AM_ERR, "the header handler returned a buffer of " + buffer.byteSize() + " bytes"
                        + (buffer.isReadOnly() ? " (read-only)" : "") + " for " + in.len + " (O-06): the data is"
                        + " discarded", null);
                in.failed = true;
            } else if (eager) {
                MemorySegment.copy(rb.segment, dataOffset, buffer, 0, in.len);
            } else {
                fetch(in, buffer);
                return;
            }
        }
        if (in.failed && eager) {
            in.failed = false;
        }
        delivered(in);
    }

    /**
     * The handler set {@code ctl_flags}: {@code LAPI_BURY_MSG} discards the data (no report); any other bit is
     * rejected (reported) and the data discarded too, so that no flag is ever silently ignored.
     */
    private void buried(Incoming in) {
        if ((in.ctlFlags & ~ReturnInfo.BURY_MSG) != 0) {
            engine.report(in.src, AM_ERR, "the header handler set ctl_flags 0x" + Integer.toHexString(in.ctlFlags)
                    + ", of which only LAPI_BURY_MSG (0x1) is known: the data is discarded", null);
        }
        in.failed = true;
    }

    private void onPut(MemorySegment seg, long offset, Incoming in, long tgtAddr, boolean eager) {
        MemorySegment dst = in.len == 0 ? EMPTY
                : engine.addresses.resolveMemory(tgtAddr, in.len, true, engine.config.resolver());
        if (dst == null) {
            engine.report(in.src, PUT_ERR, "LAPI_Put of " + in.len + " bytes to " + describe(tgtAddr) + ", which is not"
                    + " writable memory of this task: dropped (the origin's counters still move)", null);
            in.unresolved = true;
            in.failed = !eager;
            finish(in);
            return;
        }
        if (in.len == 0) {
            delivered(in);
        } else if (eager) {
            MemorySegment.copy(seg, offset + Wire.HEADER, dst, 0, in.len);
            delivered(in);
        } else {
            fetch(in, dst);
        }
    }

    private void onGet(Incoming in, long tgtAddr) {
        if (in.len == 0) {
            finish(in);
            return;
        }
        MemorySegment src = engine.addresses.resolveMemory(tgtAddr, in.len, false, engine.config.resolver());
        if (src == null) {
            engine.report(in.src, GET_ERR, "LAPI_Get of " + in.len + " bytes from " + describe(tgtAddr)
                    + ", which is not"
                    + " readable memory of this task: refused", null);
            in.unresolved = true;
            in.failed = true;
            finish(in);
            return;
        }
        try {
            MdHandle md = endpoint.bindOnce(src, in.len, in);
            in.md = md;
            endpoint.portals.put(md, AckRequest.NOACK_REQ, endpoint.proc(in.src), endpoint.ptSource, 0, in.msgId, 0,
                    0);
        } catch (PortalsException e) {
            engine.report(in.src, GET_ERR, "LAPI_Get: sending the data failed", e);
            in.failed = true;
            in.unresolved = true;
            MdHandle md = in.md;
            if (md != null) {
                endpoint.unlinkQuietly(md);
            }
            finish(in);
        }
    }

    /** The Get's data has left: the target buffer is no longer needed (tgt_cntr). */
    void onReplySent(Incoming in) {
        MdHandle md = in.md;
        if (md != null) {
            endpoint.unlinkQuietly(md);
        }
        finish(in);
    }

    /** Rendezvous: PtlGet straight into {@code buffer} from the origin's exposed data. */
    private void fetch(Incoming in, MemorySegment buffer) {
        try {
            MdHandle md = endpoint.bindOnce(buffer, in.len, in);
            in.md = md;
            endpoint.portals.get(md, endpoint.proc(in.src), endpoint.ptSource, 0, in.msgId, 0);
        } catch (PortalsException e) {
            engine.report(in.src, typeOf(in.kind), "fetching " + in.len
                    + " bytes from the origin failed: the data is discarded", e);
            in.failed = true;
            delivered(in);
        }
    }

    /** A rendezvous fetch ended: the data is in place (T4). */
    void onFetched(Incoming in) {
        MdHandle md = in.md;
        if (md != null) {
            endpoint.unlinkQuietly(md);
        }
        delivered(in);
    }

    /**
     * T4: the data is delivered. The completion handler runs (T5), then finish. A handler queued for a completion
     * thread may run long: data-done goes back before it is queued, for the origin's Fence. An inline handler
     * (SEND_REPLY) is short and non-blocking by contract, and the final reply that follows it at once carries
     * data-done too: one reply, and one wake-up of the origin's dispatcher, instead of two.
     */
    private void delivered(Incoming in) {
        CompletionHandler ch = in.completion;
        if (ch == null || in.retFlag == RetFlag.SEND_REPLY) {
            runCompletion(in);
            return;
        }
        in.dataDoneSent = true;
        endpoint.sendControl(in.src, Wire.COMPLETE, Wire.F_DATA_DONE, 0, in.msgId, 0);
        if (!engine.completions().offer(in)) {
            engine.report(in.src, AM_ERR, "the completion queue is full (a peer beyond its credits): run inline", null);
            runCompletion(in);
        }
    }

    /** T5: runs the completion handler (a completion thread, or inline), then finishes. */
    void runCompletion(Incoming in) {
        CompletionHandler ch = in.completion;
        if (ch != null) {
            try {
                ch.onComplete(engine.context(), in.userInfo);
            } catch (Throwable t) {
                engine.report(in.src, AM_ERR, "the completion handler threw (O-06): counters move as if it returned",
                        t);
            }
        }
        finish(in);
    }

    /**
     * T6 and T7: tgt_cntr, then the final reply (credit, cmpl_cntr unless LOCAL_STATE). When no counter of the
     * origin waits for it ({@link Wire#F_LAZY}), the reply is deferred: it rides on the next packet to the origin
     * ({@link Wire#ACK}), or goes with the others in one packet once {@link Acks#threshold()} are owed, or when the
     * origin fences ({@link Wire#FLUSH}).
     */
    private void finish(Incoming in) {
        if (!in.unresolved && in.tgtCntr != 0) {
            LapiCounter c = engine.addresses.resolveCounter(in.tgtCntr, engine.context(), engine.config.resolver());
            if (c == null) {
                engine.report(in.src, typeOf(in.kind), "tgt_cntr " + describe(in.tgtCntr)
                        + " is not a counter of this task (O-09): not incremented", null);
            } else {
                c.increment();
            }
        }
        int flags = Wire.F_FINAL | Wire.F_DATA_DONE | (in.retFlag == RetFlag.LOCAL_STATE ? 0 : Wire.F_CMPL)
                | (in.failed ? Wire.F_FAILED : 0);
        int src = in.src;
        long msgId = in.msgId;
        int kind = in.kind;
        boolean lazy = in.lazy && !in.failed && !engine.stopping();
        int epoch = in.epoch;
        release(in);
        if (lazy) {
            int owed = endpoint.acks.defer(src, msgId, epoch);
            if (owed >= endpoint.acks.threshold()) {
                flush(src);
            }
            if (owed > 0) {
                return;
            }
        }
        try {
            endpoint.sendControl(src, Wire.COMPLETE, flags, 0, msgId, 0);
        } catch (LapiException e) {
            engine.report(src, typeOf(kind), "sending the completion reply failed", e);
        }
    }

    /** The {@code err_type} of an error about a request of {@code kind}. */
    private static AsyncErrorType typeOf(int kind) {
        return switch (kind) {
            case Wire.AM_EAGER, Wire.AM_RNDV -> AsyncErrorType.AM_ERR;
            case Wire.PUT_EAGER, Wire.PUT_RNDV -> AsyncErrorType.PUT_ERR;
            case Wire.GET_REQ -> AsyncErrorType.GET_ERR;
            default -> AsyncErrorType.INT_ERR;
        };
    }

    private static String describe(long address) {
        return "0x" + Long.toHexString(address);
    }
}
