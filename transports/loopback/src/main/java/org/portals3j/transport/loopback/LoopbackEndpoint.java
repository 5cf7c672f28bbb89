package org.portals3j.transport.loopback;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.SendArguments;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * One rank's endpoint: a bounded queue of messages sent to it, and one thread that delivers them to its handler in
 * the order they were queued. The header is copied at send; the payload is read at delivery, straight into the
 * memory the handler names.
 */
final class LoopbackEndpoint implements Transport {
    static final Set<TransportCapability> CAPABILITIES = Set.of(TransportCapability.SINGLE_PROCESS);
    static final int MAX_HEADER = 256;
    /** Messages an application thread may queue before its send waits for room. */
    static final int BOUND = 64;
    /** Delivery threads never wait (only they make room): they may queue up to this many, then the peer fails. */
    static final int CAPACITY = 4 * BOUND;

    private static final System.Logger LOG = System.getLogger(LoopbackEndpoint.class.getName());

    /** One queued message. The slots are made once and reused: queueing allocates nothing. */
    private static final class Slot {
        final MemorySegment header = MemorySegment.ofArray(new long[MAX_HEADER / Long.BYTES]); // 8-byte aligned
        int headerLength;
        @Nullable LoopbackEndpoint sender;
        MemorySegment payload = MemorySegment.NULL;
        long offset;
        long length;
        long token;
    }

    private final String jobId;
    private final int rank;
    private final int size;
    private final DepositWriter[] deposits;
    private final boolean[] failedPeers;
    private final Slot[] slots = new Slot[CAPACITY];
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private int head; // guarded by lock, as are count and failedPeers
    private int count;
    private volatile boolean closed; // written under lock
    private volatile @Nullable MessageHandler handler; // written under lock

    LoopbackEndpoint(String jobId, int rank, int size) {
        this.jobId = jobId;
        this.rank = rank;
        this.size = size;
        this.deposits = new DepositWriter[size];
        this.failedPeers = new boolean[size];
        for (int i = 0; i < size; i++) {
            deposits[i] = new DepositWriter();
        }
        for (int i = 0; i < CAPACITY; i++) {
            slots[i] = new Slot();
        }
    }

    String jobId() {
        return jobId;
    }

    @Override
    public String provider() {
        return LoopbackTransportProvider.NAME;
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
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
        lock.lock();
        try {
            if (handler != null || closed) {
                throw new IllegalStateException("rank " + rank + ": endpoint already started or closed");
            }
            handler = messageHandler;
            new DeliveryThread(this, messageHandler).start();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        SendArguments.check(peer, size, header, headerLength, MAX_HEADER, payload, payloadOffset, payloadLength,
                maxPayloadLength(), provider());
        if (closed) {
            throw new IllegalStateException("rank " + rank + ": endpoint is closed");
        }
        LoopbackEndpoint target = LoopbackTransportProvider.endpoint(jobId, peer);
        Queued queued = target == null || failed(peer) ? Queued.CLOSED
                : target.enqueue(this, header, headerLength, payload, payloadOffset, payloadLength, token);
        if (queued == Queued.FULL) { // a delivery thread found the target's queue full: the target counts as failed
            peerFailed(peer);
        }
        if (queued != Queued.YES) {
            complete(token, false);
        }
    }

    /** What {@link #enqueue} did. */
    private enum Queued {
        YES,
        /** The target is closed. */
        CLOSED,
        /** The target's queue is full, and the sender is a delivery thread, which must not wait. */
        FULL
    }

    /** Queues a message, waiting for room unless the caller is a delivery thread. */
    private Queued enqueue(LoopbackEndpoint sender, MemorySegment header, int headerLength,
                           MemorySegment payload, long offset, long length, long token) {
        boolean fromDelivery = Thread.currentThread() instanceof DeliveryThread;
        lock.lock();
        try {
            while (!closed && count >= (fromDelivery ? CAPACITY : BOUND)) {
                if (fromDelivery) {
                    return Queued.FULL;
                }
                notFull.awaitUninterruptibly(); // backpressure: wait for the delivery thread to make room
            }
            if (closed) {
                return Queued.CLOSED;
            }
            Slot s = slots[(head + count) % CAPACITY];
            MemorySegment.copy(header, 0, s.header, 0, headerLength);
            s.headerLength = headerLength;
            s.sender = sender;
            s.payload = payload;
            s.offset = offset;
            s.length = length;
            s.token = token;
            count++;
            notEmpty.signal();
            return Queued.YES;
        } finally {
            lock.unlock();
        }
    }

    /** The delivery thread's loop: one message at a time, in queue order, until the endpoint closes. */
    void deliverUntilClosed(MessageHandler h) {
        while (true) {
            Slot s;
            lock.lock();
            try {
                while (count == 0 && !closed) {
                    notEmpty.awaitUninterruptibly();
                }
                if (closed) {
                    break;
                }
                s = slots[head]; // stays ours until count goes down: senders write behind it
            } finally {
                lock.unlock();
            }
            deliver(h, s);
            lock.lock();
            try {
                s.payload = MemorySegment.NULL;
                s.sender = null;
                head = (head + 1) % CAPACITY;
                count--;
                notFull.signalAll();
            } finally {
                lock.unlock();
            }
        }
        failQueued();
    }

    /** The two-phase receive of one message, then the sender's completion. */
    private void deliver(MessageHandler h, Slot s) {
        LoopbackEndpoint sender = s.sender;
        int source = sender == null ? rank : sender.rank;
        DepositWriter writer = deposits[source];
        Deposit d = writer.reset();
        boolean delivered = true;
        try {
            h.onHeader(source, s.header, s.headerLength, s.length, d);
            long n = Math.min(d.length(), s.length);
            if (d.accepted() && n > 0) {
                MemorySegment.copy(s.payload, s.offset, d.segment(), d.offset(), n);
                writer.addDeposited(n);
            }
        } catch (RuntimeException e) { // the handler threw, or either memory went away: the message is lost
            LOG.log(System.Logger.Level.WARNING, "rank " + rank + ": message from rank " + source + " failed: " + e);
            writer.fail();
            delivered = false;
        }
        try {
            h.onDeposited(source, d);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": handler threw from onDeposited", e);
        }
        if (sender != null) {
            sender.complete(s.token, delivered);
        }
    }

    /** Completes what is still queued as not delivered (the endpoint closed), calling senders outside the lock. */
    private void failQueued() {
        while (true) {
            LoopbackEndpoint sender;
            long token;
            lock.lock();
            try {
                if (count == 0) {
                    return;
                }
                Slot s = slots[head];
                sender = s.sender;
                token = s.token;
                s.payload = MemorySegment.NULL;
                s.sender = null;
                head = (head + 1) % CAPACITY;
                count--;
            } finally {
                lock.unlock();
            }
            if (sender != null) {
                sender.complete(token, false);
            }
        }
    }

    private void complete(long token, boolean delivered) {
        MessageHandler h = handler;
        if (token != NO_NOTIFY && h != null) {
            try {
                h.onSendComplete(token, delivered);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": handler threw from onSendComplete", e);
            }
        }
    }

    /** Records that {@code peer} failed or left, and tells the handler once. */
    private void peerFailed(int peer) {
        MessageHandler h;
        lock.lock();
        try {
            if (failedPeers[peer] || closed) {
                return;
            }
            failedPeers[peer] = true;
            h = handler;
        } finally {
            lock.unlock();
        }
        if (h != null) {
            try {
                h.onPeerFailure(peer);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": handler threw from onPeerFailure", e);
            }
        }
    }

    @Override
    public boolean isPeerAlive(int peer) {
        if (peer == rank) {
            return !closed;
        }
        return peer >= 0 && peer < size && !failed(peer) && LoopbackTransportProvider.endpoint(jobId, peer) != null;
    }

    /**
     * Closes without waiting for the delivery thread (it may be waiting for a lock the caller holds): that thread
     * fails what is still queued on its way out, or this call does if the endpoint never started.
     */
    @Override
    public void close() {
        boolean started;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            started = handler != null;
            notEmpty.signalAll();
            notFull.signalAll(); // senders waiting for room complete as not delivered
        } finally {
            lock.unlock();
        }
        for (LoopbackEndpoint peer : LoopbackTransportProvider.leave(this)) {
            if (peer != null) {
                peer.peerFailed(rank);
            }
        }
        if (!started) {
            failQueued();
        }
    }

    private boolean failed(int peer) {
        lock.lock();
        try {
            return failedPeers[peer];
        } finally {
            lock.unlock();
        }
    }

    /** The thread that delivers one endpoint's messages; a send from it never waits for room. */
    private static final class DeliveryThread extends Thread {
        private final LoopbackEndpoint endpoint;
        private final MessageHandler handler;

        DeliveryThread(LoopbackEndpoint endpoint, MessageHandler handler) {
            super("loopback-" + endpoint.jobId + "-rank-" + endpoint.rank);
            this.endpoint = endpoint;
            this.handler = handler;
            setDaemon(true);
        }

        @Override
        public void run() {
            endpoint.deliverUntilClosed(handler);
        }
    }
}
