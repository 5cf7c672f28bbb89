package org.portals3j.tck.selftest.broken;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;

/**
 * {@code broken-reorder}: holds back every odd-numbered data message to each peer (the 1st, 3rd, ...) and
 * sends it right after the next message to that peer, of whatever kind, so the two swap places. It breaks the
 * contract's <em>per-peer FIFO</em> order and nothing else: every message arrives, once, intact. (Over Isotach the
 * message that overtakes may be a pulse mark: a packet then arrives after the end of its own pulse.)
 *
 * <p>A held message with no successor would be lost, which is a drop, not a reordering. So a held message also
 * goes when any endpoint of the job polls ({@link Polling#poll}): a rank that waits for something polls, and
 * at that moment the network "catches up"; and at the latest {@value #LATEST_MILLIS} ms after it was held, for
 * a rank that waits without polling (reading a status register, say). A test thread that sends x then y to
 * one peer without polling in between therefore sees y before x, unless it stalls for that long between the
 * two sends.
 *
 * <p>The held message keeps the sender's payload by reference, as a network does until the send completes
 * (the contract says it stays unchanged until then); its completion is reported when it is finally sent.
 */
public final class ReorderingTransport extends BrokenTransport {
    static final String NAME = "broken-reorder";
    /** How long a message is held at most when nothing overtakes it. */
    static final long LATEST_MILLIS = 200;

    /** Sends what nothing overtook in time: one daemon thread for every job, asleep while nothing is held. */
    private static final ScheduledExecutorService LATE = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "broken-reorder-late");
        t.setDaemon(true);
        return t;
    });

    /** The open endpoints of each job, by job id: a poll at any of them releases what all of them hold. */
    private static final Map<String, Set<ReorderingTransport>> JOBS = new ConcurrentHashMap<>();

    private final String job;
    private final AtomicReferenceArray<@Nullable Held> held;

    private ReorderingTransport(Transport network, String job) {
        super(NAME, network);
        this.job = job;
        this.held = new AtomicReferenceArray<>(network.size());
    }

    static ReorderingTransport open(Transport network, String job) {
        ReorderingTransport t = new ReorderingTransport(network, job);
        JOBS.computeIfAbsent(job, k -> ConcurrentHashMap.newKeySet()).add(t);
        return t;
    }

    @Override
    protected boolean breaks(long n) {
        return n % 2 == 1;
    }

    @Override
    protected void misbehave(int peer, MemorySegment header, int headerLength,
                             MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        MemorySegment headerCopy = copyOf(header, 0, headerLength);
        if (headerCopy == null) {
            network().send(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
            return;
        }
        Held h = new Held(headerCopy, headerLength, payload, payloadOffset, payloadLength, token);
        Held older = held.getAndSet(peer, h);
        if (older != null) {
            send(peer, older); // another thread's hold, not yet overtaken: it goes now, still late
        }
        LATE.schedule(() -> {
            if (held.compareAndSet(peer, h, null)) {
                send(peer, h);
            }
        }, LATEST_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void passed(int peer) {
        release(peer);
    }

    private void release(int peer) {
        Held h = held.getAndSet(peer, null);
        if (h != null) {
            send(peer, h);
        }
    }

    private void send(int peer, Held h) {
        try {
            network().send(peer, h.header, h.headerLength, h.payload, h.payloadOffset, h.payloadLength, h.token);
        } catch (IllegalStateException closed) {
            complete(h.token, false); // this endpoint closed meanwhile: lost, as what is queued at a close
        }
    }

    /** Releases everything held in this endpoint's job, then polls the network. */
    @Override
    public boolean poll() {
        boolean released = false;
        for (ReorderingTransport t : JOBS.getOrDefault(job, Set.of())) {
            for (int peer = 0; peer < t.held.length(); peer++) {
                if (t.held.get(peer) != null) {
                    t.release(peer);
                    released = true;
                }
            }
        }
        return Polling.of(network()).poll() || released;
    }

    /** What is still held fails, as the network fails what is still queued when an endpoint closes. */
    @Override
    public void close() {
        JOBS.computeIfPresent(job, (k, set) -> {
            set.remove(this);
            return set.isEmpty() ? null : set;
        });
        for (int peer = 0; peer < held.length(); peer++) {
            Held h = held.getAndSet(peer, null);
            if (h != null) {
                complete(h.token, false);
            }
        }
        super.close();
    }

    /** A message held back: its header copied, its payload referenced until it is sent. */
    private record Held(MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                        long payloadLength, long token) {
    }

    /** Registered in {@code META-INF/services}. */
    public static final class Provider extends BrokenTransportProvider {
        public Provider() {
            super(NAME, "swaps each odd-numbered data message to a peer with the message after it");
        }

        @Override
        protected Transport wrap(Transport network, EndpointConfig config) {
            return ReorderingTransport.open(network, config.job().id());
        }
    }
}
