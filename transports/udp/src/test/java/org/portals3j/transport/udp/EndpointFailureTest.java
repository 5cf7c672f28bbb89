package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/**
 * An Error that escapes the protocol thread (an OutOfMemoryError from the socket path, or one thrown by a handler)
 * fails the endpoint loudly: one ERROR line, BYE to the peers, every send failed, every peer reported failed,
 * waiting senders released. It used to kill the thread silently; peers found out only at their timeout.
 */
class EndpointFailureTest {
    /** Patient peers: only a BYE makes them declare a rank dead during a test. */
    private static final Map<String, String> PATIENT = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
            UdpOptions.PEER_TIMEOUT_MILLIS, "120000", UdpOptions.SEND_QUEUE_MESSAGES, "8");
    private final UdpJobs jobs = new UdpJobs();
    private final Logger log = Logger.getLogger(UdpEndpoint.class.getName());
    private final ConcurrentLinkedQueue<LogRecord> errors = new ConcurrentLinkedQueue<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        log.addHandler(capture);
    }

    @AfterEach
    void close() {
        log.removeHandler(capture);
        jobs.close();
    }

    @Test
    void anErrorOnTheProtocolThreadFailsTheEndpointLoudly() throws Exception {
        Job job = Job.local(2);
        UdpJobs.Controlled c0 = jobs.openControlled(job, 0, PATIENT);
        UdpJobs.Controlled c1 = jobs.openControlled(job, 1, PATIENT);
        UdpEndpoint t1 = c1.endpoint();
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        c0.endpoint().start(a);
        t1.start(b);
        c0.io().freeze(); // nothing rank 1 sends is acknowledged: its sends stay pending, then its queue fills
        // A send after the failure either completes false (rank 0 is dead to rank 1 by then) or, once the endpoint
        // counts as closed, is refused: which one depends on how soon this thread runs again.
        AtomicInteger refused = new AtomicInteger();
        Thread sender = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 20; i++) {
                try {
                    t1.send(0, Recorder.header(i), 16, Recorder.payload(100, i), 0, 100, i);
                } catch (IllegalStateException closed) {
                    refused.incrementAndGet();
                }
            }
        });
        Recorder.await("rank 1's sender waits for room", 10_000,
                () -> t1.counters().getOrDefault("sends.waited", 0L) > 0);
        c1.io().failNextReceive(new OutOfMemoryError("injected into the receive path"));
        c1.io().wakeup();
        sender.join(20_000);
        assertThat(sender.isAlive()).as("the waiting sender is released").isFalse();
        Recorder.await("every send completes or is refused", 10_000, () -> b.completions.size() + refused.get() == 20);
        assertThat(b.completions.values()).containsOnly(false);
        assertThat(b.completions).as("the 8 queued sends and the one that waited").hasSizeGreaterThanOrEqualTo(9);
        assertThat(b.failedPeers).containsExactly(0);
        assertThat(t1.isPeerAlive(1)).isFalse();
        assertThat(errors).hasSize(1);
        assertThat(String.valueOf(errors.element().getMessage()))
                .contains("rank 1", "failed", "injected into the receive path");
        c0.io().thaw(false);
        Recorder.await("rank 0 hears the BYE (its timeout is two minutes)", 10_000, () -> a.failedPeers.contains(1));
        b.assertClean();
    }

    @Test
    void anErrorThrownByAHandlerFailsTheEndpointLoudly() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, PATIENT);
        UdpEndpoint t1 = (UdpEndpoint) jobs.openRank(job, 1, PATIENT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        MessageHandler throwing = new MessageHandler() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength,
                    Deposit deposit) {
                b.onHeader(source, header, headerLength, payloadLength, deposit);
            }

            @Override
            public void onDeposited(int source, Deposit deposit) {
                b.onDeposited(source, deposit);
                throw new StackOverflowError("thrown by the handler");
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
        t0.start(a);
        t1.start(throwing);
        t0.send(1, Recorder.header(1), 16, Recorder.payload(10, 1), 0, 10, 1L);
        Recorder.await("rank 0 hears the BYE (its timeout is two minutes)", 10_000, () -> a.failedPeers.contains(1));
        Recorder.await("rank 1 reports rank 0 failed (after the BYE went)", 10_000, () -> !b.failedPeers.isEmpty());
        assertThat(b.failedPeers).containsExactly(0);
        Recorder.await("the endpoint counts as closed", 10_000, () -> !t1.isPeerAlive(1));
        assertThat(errors).hasSize(1);
        assertThat(String.valueOf(errors.element().getMessage())).contains("thrown by the handler");
        assertThat(List.of(b.messages.size())).containsExactly(1);
    }
}
