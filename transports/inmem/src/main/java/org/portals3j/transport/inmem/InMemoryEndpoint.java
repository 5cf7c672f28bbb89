package org.portals3j.transport.inmem;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.SendArguments;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.internal.PaddedInt;

/**
 * One rank's endpoint. See the package documentation for how delivery works.
 *
 * <p>State that only the holder of the drain flag touches: {@link #deposits}. State under
 * {@link #inboxLock}: the inbox queue and the envelope pool.
 */
final class InMemoryEndpoint implements Transport, Polling {
    static final int MAX_HEADER = 256;

    private static final System.Logger LOG = System.getLogger(InMemoryEndpoint.class.getName());
    /**
     * The drain flag, written by every thread that delivers to this endpoint; padded so it does not share a cache
     * line with the fields the endpoint's own rank reads on each send.
     */
    private final PaddedInt drain = new PaddedInt();
    private final InMemoryFabric fabric;
    private final int rank;
    private final DepositWriter[] deposits;
    private final Object inboxLock = new Object();
    private final boolean[] failedPeers;
    private @Nullable Envelope head;
    /** Messages in the inbox; read without the lock on the fast path (a send with nothing queued). */
    private volatile int queued;
    private @Nullable Envelope tail;
    private @Nullable Envelope free;
    private volatile @Nullable MessageHandler handler;
    private volatile boolean closed;
    private final PollWatch pollWatch;

    InMemoryEndpoint(InMemoryFabric fabric, int rank) {
        this.fabric = fabric;
        this.rank = rank;
        this.deposits = new DepositWriter[fabric.size()];
        for (int i = 0; i < deposits.length; i++) {
            deposits[i] = new DepositWriter();
        }
        this.failedPeers = new boolean[fabric.size()];
        this.pollWatch = new PollWatch(fabric.size());
    }

    @Override
    public String provider() {
        return InMemoryTransportProvider.NAME;
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return InMemoryTransportProvider.CAPABILITIES;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return fabric.size();
    }

    @Override
    public int maxHeaderLength() {
        return MAX_HEADER;
    }

    @Override
    public long maxPayloadLength() {
        return Long.MAX_VALUE;
    }

    @Override
    public void start(MessageHandler messageHandler) {
        synchronized (inboxLock) {
            if (handler != null) {
                throw new IllegalStateException("rank " + rank + ": transport already started");
            }
            handler = messageHandler;
        }
        tryDrain();
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        SendArguments.check(peer, fabric.size(), header, headerLength, MAX_HEADER, payload, payloadOffset,
                payloadLength, maxPayloadLength(), provider());
        if (closed) {
            throw new IllegalStateException("rank " + rank + ": transport is closed");
        }
        InMemoryEndpoint target = fabric.endpoint(peer);
        if (target == null || target.closed) {
            complete(token, false);
            return;
        }
        if (target.tryAcquireDrain()) {
            try {
                if (target.handler != null && target.inboxEmpty()) {
                    target.deliver(rank, this, header, headerLength, payload, payloadOffset, payloadLength, token);
                } else {
                    target.enqueue(rank, this, header, headerLength, payload, payloadOffset, payloadLength, token);
                }
            } catch (RuntimeException | Error e) {
                target.drain.setRelease(0); // a flag left set would stall the target forever
                throw e;
            }
            target.drainAndRelease();
        } else {
            target.enqueue(rank, this, header, headerLength, payload, payloadOffset, payloadLength, token);
            target.tryDrain();
        }
    }

    /**
     * Delivery is inline, so a poll receives nothing: it tells the peers that this rank's application polls, and now
     * and then looks whether theirs still do ({@link PollWatch}).
     */
    @Override
    public boolean poll() {
        if (pollWatch.polled()) {
            long now = System.nanoTime();
            for (int r = 0; r < fabric.size(); r++) {
                InMemoryEndpoint peer = r == rank ? null : fabric.endpoint(r);
                if (peer != null && pollWatch.peerGone(r, peer.pollWatch, now)) {
                    peer.pollersGone();
                }
            }
        }
        return false;
    }

    @Override
    public void pollingStopped() {
        if (pollWatch.stopped()) {
            pollersGone();
        }
    }

    /** Tells the handler that nobody polls this endpoint any more; runs on the thread that noticed. */
    private void pollersGone() {
        if (!(handler instanceof PollingHandler h) || closed) {
            return;
        }
        try {
            h.onPollersGone();
        } catch (RuntimeException e) {
            handlerFault("onPollersGone", e);
        }
    }

    @Override
    public boolean isPeerAlive(int peer) {
        InMemoryEndpoint endpoint = fabric.endpoint(peer);
        return endpoint != null && !endpoint.closed && !failedPeers[peer];
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        fabric.leave(this);
        // Wait out a delivery in progress, then fail whatever is still queued for us.
        while (!tryAcquireDrain()) {
            Thread.onSpinWait();
        }
        try {
            Envelope e;
            while ((e = takeQueued()) != null) {
                e.source.complete(e.token, false);
                recycle(e);
            }
        } finally {
            drain.setRelease(0);
        }
        for (int r = 0; r < fabric.size(); r++) {
            InMemoryEndpoint other = fabric.endpoint(r);
            if (other != null && other != this) {
                other.peerFailed(rank);
            }
        }
    }

    // ---- delivery ---------------------------------------------------------------------------

    private boolean tryAcquireDrain() {
        return drain.compareAndSet(0, 1);
    }

    private void tryDrain() {
        if (tryAcquireDrain()) {
            drainAndRelease();
        }
    }

    /** Delivers everything queued, lets go of the flag, and takes it again if more arrived meanwhile. */
    private void drainAndRelease() {
        do {
            try {
                if (handler != null && !closed) {
                    Envelope e;
                    // The volatile count first: the common case, nothing queued, takes no monitor.
                    while (!inboxEmpty() && (e = takeQueued()) != null) {
                        deliver(e.sourceRank, e.source, e.header, e.headerLength,
                                e.payload, e.payloadOffset, e.payloadLength, e.token);
                        recycle(e);
                    }
                }
            } finally {
                // Also when a delivery throws: never stall the endpoint. A full (volatile) store, not a
                // release: the inboxEmpty() load below must not be reordered before it, or a sender that
                // queued meanwhile and saw the flag still set would strand its message (Dekker's
                // store-load pattern; x86 reorders a plain store with a later load).
                drain.setVolatile(0);
            }
        } while (handler != null && !closed && !inboxEmpty() && tryAcquireDrain());
    }

    private void deliver(int sourceRank, InMemoryEndpoint source, MemorySegment header, int headerLength,
                         MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        MessageHandler h = handler;
        if (h == null) {
            throw new IllegalStateException("deliver before start");
        }
        DepositWriter writer = deposits[sourceRank];
        Deposit deposit = writer.reset();
        boolean delivered = true;
        try {
            h.onHeader(sourceRank, header, headerLength, payloadLength, deposit);
        } catch (RuntimeException e) {
            handlerFault("onHeader", e);
            deposit.discard();
        }
        if (deposit.accepted() && deposit.length() > 0 && payloadLength > 0) {
            long n = Math.min(deposit.length(), payloadLength);
            try {
                MemorySegment.copy(payload, payloadOffset, deposit.segment(), deposit.offset(), n);
                writer.addDeposited(n);
            } catch (IllegalStateException | WrongThreadException | IndexOutOfBoundsException
                    | UnsupportedOperationException e) {
                // The source memory went away (its arena was closed), is confined to another thread,
                // or the target is read-only:
                // the transfer fails at both ends.
                writer.fail();
                delivered = false;
            }
        }
        // The payload has been read: the send is complete before the target hears of the deposit, so nothing the
        // delivery causes (the target's answer, logged at the sender) can overtake the sender's completion.
        source.complete(token, delivered);
        try {
            h.onDeposited(sourceRank, deposit);
        } catch (RuntimeException e) {
            handlerFault("onDeposited", e);
        }
    }

    private void complete(long token, boolean delivered) {
        if (token == NO_NOTIFY) {
            return;
        }
        MessageHandler h = handler;
        if (h != null) {
            try {
                h.onSendComplete(token, delivered);
            } catch (RuntimeException e) {
                handlerFault("onSendComplete", e);
            }
        }
    }

    private void peerFailed(int peer) {
        failedPeers[peer] = true;
        MessageHandler h = handler;
        if (h != null) {
            try {
                h.onPeerFailure(peer);
            } catch (RuntimeException e) {
                handlerFault("onPeerFailure", e);
            }
        }
    }

    private void handlerFault(String callback, RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": message handler threw from " + callback
                + "; the message was handled as far as it got", e);
    }

    // ---- inbox ------------------------------------------------------------------------------

    private boolean inboxEmpty() {
        return queued == 0;
    }

    private void enqueue(int sourceRank, InMemoryEndpoint source, MemorySegment header, int headerLength,
                         MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        synchronized (inboxLock) {
            Envelope e = free;
            if (e != null) {
                free = e.next;
            } else {
                e = new Envelope();
            }
            e.next = null;
            e.sourceRank = sourceRank;
            e.source = source;
            MemorySegment.copy(header, 0, e.header, 0, headerLength);
            e.headerLength = headerLength;
            e.payload = payload;
            e.payloadOffset = payloadOffset;
            e.payloadLength = payloadLength;
            e.token = token;
            Envelope last = tail;
            if (last == null) {
                head = e;
            } else {
                last.next = e;
            }
            tail = e;
            queued++;
        }
    }

    private @Nullable Envelope takeQueued() {
        synchronized (inboxLock) {
            Envelope e = head;
            if (e != null) {
                head = e.next;
                if (head == null) {
                    tail = null;
                }
                e.next = null;
                queued--;
            }
            return e;
        }
    }

    private void recycle(Envelope e) {
        synchronized (inboxLock) {
            e.payload = MemorySegment.NULL;
            e.source = this;
            e.next = free;
            free = e;
        }
    }

    /** A queued message: its header copied, its payload referenced (copied once, at delivery). */
    private final class Envelope {
        final MemorySegment header = MemorySegment.ofArray(new byte[MAX_HEADER]);
        int headerLength;
        int sourceRank;
        InMemoryEndpoint source = InMemoryEndpoint.this;
        MemorySegment payload = MemorySegment.NULL;
        long payloadOffset;
        long payloadLength;
        long token;
        @Nullable Envelope next;
    }
}
