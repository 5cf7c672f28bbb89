package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/**
 * Backpressure: the queue of messages to a peer not yet acknowledged is bounded; an application thread's send
 * waits for room, and is released when the peer dies or the endpoint closes; a send from the receive path never
 * waits, and a peer that makes the receive path queue beyond four times the bound is failed.
 */
class BackpressureTest {
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    private static Map<String, String> options(String... more) {
        Map<String, String> o = new HashMap<>(Map.of(UdpOptions.HEARTBEAT_MILLIS, "50", UdpOptions.PEER_TIMEOUT_MILLIS,
                "600", UdpOptions.SEND_QUEUE_MESSAGES, "32"));
        for (int i = 0; i < more.length; i += 2) {
            o.put(more[i], more[i + 1]);
        }
        return o;
    }

    private static long counter(UdpEndpoint t, String name) {
        return t.counters().getOrDefault(name, 0L);
    }

    @Test
    void aSendLoopAgainstASlowReceiverStaysWithinTheBoundAndLosesNothing() throws Exception {
        Job job = Job.local(2);
        Map<String, String> o = options(UdpOptions.PEER_TIMEOUT_MILLIS, "15000", UdpOptions.SEND_QUEUE_BYTES, "100000");
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, o);
        UdpEndpoint t1 = (UdpEndpoint) jobs.openRank(job, 1, o);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        b.slowNanos = 100_000; // 0.1 ms a message
        t0.start(a);
        t1.start(b);
        int count = 2_000;
        for (int i = 0; i < count; i++) {
            int size = i % 3 == 0 ? 20_000 : 100; // the byte bound binds too: 5 of the larger ones fill it
            t0.send(1, Recorder.header(i), 16, Recorder.payload(size, i), 0, size, i);
        }
        Recorder.await("every message", 120_000, () -> b.messages.size() == count && a.completions.size() == count);
        assertThat(b.messages).extracting(Recorder.Message::id)
                .containsExactlyElementsOf(IntStream.range(0, count).boxed().toList());
        assertThat(b.messages).allSatisfy(m -> assertThat(m.crc())
                .isEqualTo(Recorder.crc(Recorder.payload(m.payloadLength(), m.id()), 0, m.payloadLength())));
        assertThat(a.completions.values()).containsOnly(true);
        assertThat(counter(t0, "sendQueue.highWater")).as("most messages unacknowledged at once").isBetween(1L, 32L);
        assertThat(counter(t0, "sends.waited")).as("sends that waited for room").isPositive();
        b.assertClean();
    }

    /** Rank 1 stops (its socket freezes); rank 0's sender waits for room until rank 0 declares rank 1 dead. */
    @Test
    void aWaitingSenderIsReleasedWithAFailedCompletionWhenThePeerDies() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, options());
        UdpJobs.Controlled c1 = jobs.openControlled(job, 1, options(UdpOptions.PEER_TIMEOUT_MILLIS, "120000"));
        Recorder a = new Recorder();
        t0.start(a);
        c1.endpoint().start(new Recorder());
        c1.io().freeze();
        Thread sender = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 100; i++) {
                t0.send(1, Recorder.header(i), 16, Recorder.payload(100, i), 0, 100, i);
            }
        });
        Recorder.await("a send waits for room", 10_000, () -> counter(t0, "sends.waited") > 0);
        Recorder.await("rank 0 declares the stopped rank 1 dead", 20_000, () -> a.failedPeers.contains(1));
        sender.join(20_000);
        assertThat(sender.isAlive()).as("the sender is released").isFalse();
        Recorder.await("every send completed", 10_000, () -> a.completions.size() == 100);
        assertThat(a.completions.values()).containsOnly(false);
        assertThat(counter(t0, "sendQueue.highWater")).isLessThanOrEqualTo(32);
        c1.io().thaw(true);
        a.assertClean();
    }

    @Test
    void aWaitingSenderIsReleasedWithAFailedCompletionWhenTheEndpointCloses() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, options(UdpOptions.PEER_TIMEOUT_MILLIS, "120000"));
        UdpJobs.Controlled c1 = jobs.openControlled(job, 1, options(UdpOptions.PEER_TIMEOUT_MILLIS, "120000"));
        Recorder a = new Recorder();
        t0.start(a);
        c1.endpoint().start(new Recorder());
        c1.io().freeze();
        AtomicInteger returned = new AtomicInteger();
        Thread sender = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 100; i++) {
                try {
                    t0.send(1, Recorder.header(i), 16, Recorder.payload(100, i), 0, 100, i);
                } catch (IllegalStateException closed) {
                    break; // later sends: the endpoint is closed
                }
                returned.incrementAndGet();
            }
        });
        Recorder.await("a send waits for room", 10_000, () -> counter(t0, "sends.waited") > 0);
        int before = returned.get();
        t0.close();
        sender.join(20_000);
        assertThat(sender.isAlive()).as("the sender is released").isFalse();
        assertThat(returned.get()).isGreaterThan(before);
        assertThat(a.completions).hasSize(returned.get());
        assertThat(a.completions.values()).containsOnly(false);
        c1.io().thaw(true);
        a.assertClean();
    }

    /**
     * Rank 1's handler sends to rank 0, which is stopped: the sends never wait (only the receive path could make
     * room); past four times the bound they fail and rank 1 declares rank 0 dead.
     */
    @Test
    void sendsFromTheReceivePathNeverWaitAndAreBoundedToo() throws Exception {
        Job job = Job.local(2);
        UdpJobs.Controlled c0 = jobs.openControlled(job, 0, options(UdpOptions.PEER_TIMEOUT_MILLIS, "120000"));
        UdpEndpoint t1 = (UdpEndpoint) jobs.openRank(job, 1, options(UdpOptions.PEER_TIMEOUT_MILLIS, "120000"));
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        AtomicInteger handlerSends = new AtomicInteger();
        int replies = 200;
        MessageHandler replying = new MessageHandler() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength,
                    Deposit deposit) {
                b.onHeader(source, header, headerLength, payloadLength, deposit);
            }

            @Override
            public void onDeposited(int source, Deposit deposit) {
                b.onDeposited(source, deposit);
                for (int i = 0; i < replies; i++) { // every one returns, whether queued or refused
                    t1.send(0, Recorder.header(i), 16, Recorder.payload(100, i), 0, 100, i);
                    handlerSends.incrementAndGet();
                }
            }

            @Override
            public void onSendComplete(long token, boolean delivered) {
                b.onSendComplete(token, delivered);
            }

            @Override
            public void onPeerFailure(int peer) {
                b.onPeerFailure(peer);
            }
        };
        c0.endpoint().start(a);
        t1.start(replying);
        c0.endpoint().send(1, Recorder.header(999), 16, MemorySegment.NULL, 0, 0, 999L);
        Recorder.await("rank 1 receives the request", 10_000, () -> b.messages.size() == 1);
        c0.io().freeze(); // nothing rank 1 sends is acknowledged now (the freeze may let a few datagrams in first)
        Recorder.await("the handler's sends all returned", 20_000, () -> handlerSends.get() == replies);
        Recorder.await("rank 1 declares rank 0 dead", 20_000, () -> b.failedPeers.contains(0));
        Recorder.await("every reply completed", 10_000, () -> b.completions.size() == replies);
        long refused = b.completions.values().stream().filter(d -> !d).count();
        assertThat(refused).as("replies failed").isPositive();
        assertThat(counter(t1, "sendQueue.highWater")).isBetween(33L, 128L); // beyond the bound, at most 4x
        assertThat(counter(t1, "sends.waited")).isZero();
        c0.io().thaw(true);
        b.assertClean();
    }
}
