package org.portals3j.transport.inmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;

class InMemoryTransportTest {
    private final List<Transport> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(Transport::close);
    }

    private List<Transport> open(Job job) throws TransportException {
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        opened.addAll(endpoints);
        return endpoints;
    }


    private static MemorySegment header(int a, int b) {
        MemorySegment h = MemorySegment.ofArray(new byte[8]);
        h.set(ValueLayout.JAVA_INT_UNALIGNED, 0, a);
        h.set(ValueLayout.JAVA_INT_UNALIGNED, 4, b);
        return h;
    }

    /** Records what a handler saw; accepts every payload into a fresh buffer unless told otherwise. */
    private static class Recorder implements MessageHandler {
        final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Long> completed = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Boolean> delivered = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Integer> failedPeers = new ConcurrentLinkedQueue<>();
        final List<byte[]> payloads = Collections.synchronizedList(new ArrayList<>());
        long acceptLimit = Long.MAX_VALUE;
        boolean headerPhaseOpen;

        @Override
        public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
            assertThat(headerPhaseOpen).as("onHeader/onDeposited alternate").isFalse();
            headerPhaseOpen = true;
            int a = header.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
            int b = header.get(ValueLayout.JAVA_INT_UNALIGNED, 4);
            log.add(source + ":" + a + ":" + b);
            long n = Math.min(acceptLimit, payloadLength);
            if (n > 0) {
                deposit.accept(MemorySegment.ofArray(new byte[(int) n]), 0, n);
            }
        }

        @Override
        public void onDeposited(int source, Deposit deposit) {
            assertThat(headerPhaseOpen).isTrue();
            headerPhaseOpen = false;
            if (deposit.accepted()) {
                payloads.add(deposit.segment().asSlice(deposit.offset(), deposit.deposited())
                        .toArray(ValueLayout.JAVA_BYTE));
            }
        }

        @Override
        public void onSendComplete(long token, boolean ok) {
            completed.add(token);
            delivered.add(ok);
        }

        @Override
        public void onPeerFailure(int peer) {
            failedPeers.add(peer);
        }
    }

    @Test
    void payloadIsDepositedWhereTheHeaderHandlerSaysAndCompletionIsReportedOnce() throws Exception {
        List<Transport> t = open(Job.local(2));
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t.get(0).start(a);
        t.get(1).start(b);
        MemorySegment payload = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6});
        t.get(0).send(1, header(7, 8), 8, payload, 1, 4, 42L);
        assertThat(b.log).containsExactly("0:7:8");
        assertThat(b.payloads).hasSize(1);
        assertThat(b.payloads.get(0)).containsExactly(2, 3, 4, 5);
        assertThat(a.completed).containsExactly(42L);
        assertThat(a.delivered).containsExactly(true);
    }

    @Test
    void theSendCompletesBeforeTheTargetHearsThatTheDepositIsDone() throws Exception {
        List<Transport> t = open(Job.local(2));
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        Recorder a = new Recorder() {
            @Override
            public void onSendComplete(long token, boolean ok) {
                order.add("send " + token + " complete");
            }
        };
        Recorder b = new Recorder() {
            @Override
            public void onDeposited(int source, Deposit deposit) {
                super.onDeposited(source, deposit);
                order.add("deposit done");
            }
        };
        t.get(0).start(a);
        t.get(1).start(b);
        t.get(0).send(1, header(3, 4), 8, MemorySegment.ofArray(new byte[] {1, 2}), 0, 2, 5L);
        // what the target does on the deposit (an answer to the sender) comes after the sender's completion
        assertThat(order).containsExactly("send 5 complete", "deposit done");
        assertThat(b.payloads.get(0)).containsExactly(1, 2);
    }

    @Test
    void bytesBeyondTheAcceptedLengthAreDiscardedAndDiscardedPayloadsStillComplete() throws Exception {
        List<Transport> t = open(Job.local(2));
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t.get(0).start(a);
        t.get(1).start(b);
        b.acceptLimit = 2;
        t.get(0).send(1, header(1, 1), 8, MemorySegment.ofArray(new byte[] {9, 8, 7}), 0, 3, 1L);
        assertThat(b.payloads.get(0)).containsExactly(9, 8);
        b.acceptLimit = 0;
        t.get(0).send(1, header(2, 2), 8, MemorySegment.ofArray(new byte[] {9, 8, 7}), 0, 3, 2L);
        assertThat(b.payloads).hasSize(1);
        assertThat(a.completed).containsExactly(1L, 2L);
    }

    @Test
    void aDepositOutsideTheGivenSegmentIsRefused() {
        Deposit d = new Deposit();
        MemorySegment s = MemorySegment.ofArray(new byte[4]);
        assertThatThrownBy(() -> d.accept(s, 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> d.accept(s, -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> d.accept(s, 1, Long.MAX_VALUE)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void messagesSentBeforeStartAreHeldAndDeliveredInOrder() throws Exception {
        List<Transport> t = open(Job.local(2));
        Recorder a = new Recorder();
        t.get(0).start(a);
        for (int i = 0; i < 5; i++) {
            t.get(0).send(1, header(i, 0), 8, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
        }
        Recorder b = new Recorder();
        t.get(1).start(b);
        assertThat(b.log).containsExactly("0:0:0", "0:1:0", "0:2:0", "0:3:0", "0:4:0");
    }

    @Test
    void concurrentSendersKeepPerThreadOrderAndEveryMessageArrivesExactlyOnce() throws Exception {
        int ranks = 4;
        int threadsPerRank = 2;
        int perThread = 5_000;
        List<Transport> t = open(Job.local(ranks));
        Recorder sink = new Recorder();
        for (int r = 0; r < ranks - 1; r++) {
            t.get(r).start(new Recorder());
        }
        t.get(ranks - 1).start(sink);
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < ranks - 1; r++) {
            for (int k = 0; k < threadsPerRank; k++) {
                Transport from = t.get(r);
                int id = r * threadsPerRank + k;
                threads.add(Thread.ofPlatform().start(() -> {
                    MemorySegment h = MemorySegment.ofArray(new byte[8]);
                    MemorySegment p = MemorySegment.ofArray(new byte[16]);
                    for (int i = 0; i < perThread; i++) {
                        h.set(ValueLayout.JAVA_INT_UNALIGNED, 0, id);
                        h.set(ValueLayout.JAVA_INT_UNALIGNED, 4, i);
                        from.send(ranks - 1, h, 8, p, 0, 16, Transport.NO_NOTIFY);
                    }
                }));
            }
        }
        for (Thread th : threads) {
            th.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(th.isAlive()).as("sender finished").isFalse();
        }
        int[] next = new int[(ranks - 1) * threadsPerRank];
        for (String entry : sink.log) {
            String[] f = entry.split(":");
            int id = Integer.parseInt(f[1]);
            int seq = Integer.parseInt(f[2]);
            assertThat(Integer.parseInt(f[0])).isEqualTo(id / threadsPerRank);
            assertThat(seq).as("order of sender %d", id).isEqualTo(next[id]);
            next[id]++;
        }
        for (int count : next) {
            assertThat(count).isEqualTo(perThread);
        }
    }

    @Test
    void aHandlerMaySendFromInsideItsCallbacksWithoutDeadlockOrReordering() throws Exception {
        List<Transport> t = open(Job.local(2));
        Recorder a = new Recorder();
        AtomicInteger echoes = new AtomicInteger();
        // Rank 1 answers every message, from inside onHeader, with a message back to rank 0 and one to itself.
        MessageHandler echo = new Recorder() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit d) {
                super.onHeader(source, header, headerLength, payloadLength, d);
                if (source == 0) {
                    int a0 = header.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                    t.get(1).send(0, header(a0, -1), 8, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
                    t.get(1).send(1, header(a0, -2), 8, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
                    echoes.incrementAndGet();
                }
            }
        };
        t.get(0).start(a);
        t.get(1).start(echo);
        for (int i = 0; i < 100; i++) {
            t.get(0).send(1, header(i, 0), 8, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
        }
        assertThat(echoes.get()).isEqualTo(100);
        List<String> back = new ArrayList<>(a.log);
        assertThat(back).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(back.get(i)).isEqualTo("1:" + i + ":-1");
        }
        assertThat(((Recorder) echo).log).hasSize(200);
    }

    @Test
    void closingAnEndpointFailsLaterSendsToItAndTellsThePeers() throws Exception {
        List<Transport> t = open(Job.local(3));
        Recorder a = new Recorder();
        Recorder c = new Recorder();
        t.get(0).start(a);
        t.get(1).start(new Recorder());
        t.get(2).start(c);
        t.get(1).close();
        assertThat(a.failedPeers).containsExactly(1);
        assertThat(c.failedPeers).containsExactly(1);
        assertThat(t.get(0).isPeerAlive(1)).isFalse();
        assertThat(t.get(0).isPeerAlive(2)).isTrue();
        t.get(0).send(1, header(0, 0), 8, MemorySegment.NULL, 0, 0, 77L);
        assertThat(a.completed).containsExactly(77L);
        assertThat(a.delivered).containsExactly(false);
        assertThatThrownBy(() -> t.get(1).send(0, header(0, 0), 8, MemorySegment.NULL, 0, 0, 1L))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSourceWhoseMemoryWasFreedFailsAtBothEnds() throws Exception {
        List<Transport> t = open(Job.local(2));
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t.get(0).start(a);
        t.get(1).start(new Recorder() {
            @Override
            public void onDeposited(int source, Deposit deposit) {
                super.onDeposited(source, deposit);
                b.log.add(deposit.failed() ? "failed" : "ok");
            }
        });
        MemorySegment gone;
        try (Arena arena = Arena.ofConfined()) {
            gone = arena.allocate(32);
        }
        t.get(0).send(1, header(0, 0), 8, gone, 0, 32, 5L);
        assertThat(b.log).containsExactly("failed");
        assertThat(a.delivered).containsExactly(false);
    }

    @Test
    void aThrowingHandlerDoesNotStopLaterDeliveries() throws Exception {
        List<Transport> t = open(Job.local(2));
        Recorder a = new Recorder();
        AtomicInteger calls = new AtomicInteger();
        t.get(0).start(a);
        t.get(1).start(new Recorder() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit d) {
                super.onHeader(source, header, headerLength, payloadLength, d);
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("hostile input made the handler fail");
                }
            }
        });
        t.get(0).send(1, header(1, 0), 8, MemorySegment.NULL, 0, 0, 1L);
        t.get(0).send(1, header(2, 0), 8, MemorySegment.NULL, 0, 0, 2L);
        assertThat(calls.get()).isEqualTo(2);
        assertThat(a.completed).containsExactly(1L, 2L);
    }

    @Test
    void badArgumentsAreRefusedWithMessages() throws Exception {
        List<Transport> t = open(Job.local(2));
        t.get(0).start(new Recorder());
        assertThatThrownBy(() -> t.get(0).send(2, header(0, 0), 8, MemorySegment.NULL, 0, 0, 1L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a rank");
        assertThatThrownBy(() -> t.get(0)
                .send(1, MemorySegment.ofArray(new byte[300]), 300, MemorySegment.NULL, 0, 0, 1L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("header length");
        assertThatThrownBy(() -> t.get(0).send(1, header(0, 0), 8, MemorySegment.ofArray(new byte[4]), 2, 4, 1L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload region");
    }

    @Test
    void aRankCannotBeOpenedTwiceAndJobSizesMustAgree() throws Exception {
        Job job = Job.local(2);
        open(job);
        assertThatThrownBy(() -> new InMemoryTransportProvider().open(new EndpointConfig(job, 0)))
                .isInstanceOf(TransportException.class).hasMessageContaining("already open");
        Job other = Job.builder(3).id(job.id()).build();
        assertThatThrownBy(() -> new InMemoryTransportProvider().open(new EndpointConfig(other, 2)))
                .isInstanceOf(TransportException.class).hasMessageContaining("another id");
    }

    @Test
    void localJobRunsEveryRankAndReportsTheFirstFailure() {
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        assertThatThrownBy(() -> LocalJob.run("inmem", Job.local(2), IdleMode.BACKOFF, Map.of(), ctx -> {
            ran.incrementAndGet();
            both.countDown();
            both.await();
            if (ctx.rank() == 1) {
                throw new IllegalStateException("rank 1 failed");
            }
        })).hasMessage("rank 1 failed");
        assertThat(ran.get()).isEqualTo(2);
    }

    @Test
    void anEndpointSaysItsCapabilitiesItselfAndTheyAreWhatItsProviderAdvertises() throws Exception {
        List<Transport> t = open(Job.local(2));
        assertThat(t.get(0).capabilities())
                .isEqualTo(Transports.require("inmem").capabilities())
                .contains(TransportCapability.INLINE_DELIVERY, TransportCapability.REPORTS_POLLERS_GONE);
        assertThat(Polling.of(t.get(1))).as("an endpoint that reports pollers gone polls").isSameAs(t.get(1));
        assertThatThrownBy(() -> t.get(0).capabilities().add(TransportCapability.NATIVE))
                .as("callers cannot change what an endpoint is").isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void providerIsFoundByNameAndUnknownNamesListTheKnownOnes() {
        assertThat(Transports.find("inmem")).isPresent();
        assertThatThrownBy(() -> Transports.require("carrier-pigeon"))
                .isInstanceOf(TransportException.class).hasMessageContaining("inmem");
    }

    // ---- pollers gone (PollWatch) ------------------------------------------------------------------------------

    /** Counts {@link PollingHandler#onPollersGone} calls and the threads they ran on. */
    private static final class PollersGone extends Recorder implements PollingHandler {
        final AtomicInteger calls = new AtomicInteger();
        final ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();

        @Override
        public void onPollersGone() {
            calls.incrementAndGet();
            threads.add(Thread.currentThread());
        }
    }

    /** {@code t}'s polling hand-over, which every inmem endpoint has. */
    private static Polling polling(Transport t) {
        assertThat(t).isInstanceOf(Polling.class);
        return Polling.of(t);
    }

    /** Polls {@code t} for {@code nanos}. */
    private static void pollFor(Transport t, long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            polling(t).poll();
        }
    }

    @Test
    void anEndpointWhosePollingStopsIsReportedGoneByAPeersPollsAfterTheGrace() throws Exception {
        List<Transport> t = open(Job.local(2));
        PollersGone a = new PollersGone();
        PollersGone b = new PollersGone();
        t.get(0).start(a);
        t.get(1).start(b);
        polling(t.get(1)).poll();
        long stoppedAt = System.nanoTime();
        long reportedAt = 0;
        long deadline = stoppedAt + TimeUnit.SECONDS.toNanos(10);
        while (b.calls.get() == 0 && System.nanoTime() < deadline) {
            polling(t.get(0)).poll();
            if (b.calls.get() != 0) {
                reportedAt = System.nanoTime();
            }
        }
        assertThat(b.calls.get()).as("reported once").isEqualTo(1);
        assertThat(reportedAt - stoppedAt).as("not before the grace").isGreaterThanOrEqualTo(PollWatch.GRACE_NANOS);
        assertThat(b.threads).containsExactly(Thread.currentThread()); // the peer's polling thread noticed
        pollFor(t.get(0), 4 * PollWatch.GRACE_NANOS);
        assertThat(b.calls.get()).as("once per stretch of polling").isEqualTo(1);
        assertThat(a.calls.get()).as("the endpoint that polls is never reported").isZero();
        // it polls again, and stops again: reported again
        polling(t.get(1)).poll();
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (b.calls.get() == 1 && System.nanoTime() < deadline) {
            polling(t.get(0)).poll();
        }
        assertThat(b.calls.get()).isEqualTo(2);
    }

    @Test
    void endpointsThatKeepPollingOrNeverPolledAreNeverReportedGone() throws Exception {
        List<Transport> t = open(Job.local(3));
        PollersGone[] h = {new PollersGone(), new PollersGone(), new PollersGone()};
        for (int r = 0; r < 3; r++) {
            t.get(r).start(h[r]);
        }
        long end = System.nanoTime() + 4 * PollWatch.GRACE_NANOS;
        while (System.nanoTime() < end) { // ranks 0 and 1 poll in turn; rank 2 never does
            polling(t.get(0)).poll();
            polling(t.get(1)).poll();
        }
        assertThat(h[0].calls.get()).isZero();
        assertThat(h[1].calls.get()).isZero();
        assertThat(h[2].calls.get()).as("nobody waits for a rank that never polled").isZero();
    }

    @Test
    void pollingStoppedReportsAtOnceOnTheCallingThreadAndOnlyAfterPolling() throws Exception {
        List<Transport> t = open(Job.local(2));
        PollersGone a = new PollersGone();
        t.get(0).start(a);
        t.get(1).start(new Recorder());
        polling(t.get(0)).pollingStopped();
        assertThat(a.calls.get()).as("it never polled").isZero();
        polling(t.get(0)).poll();
        polling(t.get(0)).pollingStopped();
        assertThat(a.calls.get()).isEqualTo(1);
        assertThat(a.threads).containsExactly(Thread.currentThread());
        polling(t.get(0)).pollingStopped();
        pollFor(t.get(1), 4 * PollWatch.GRACE_NANOS);
        assertThat(a.calls.get()).as("announced once, not noticed again").isEqualTo(1);
    }
}
