package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

/** The Transport contract on real sockets. */
class UdpTransportContractTest {
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    /** Starts {@code rank}'s endpoint with a fresh recorder as its handler. */
    private static Recorder started(List<Transport> t, int rank) throws Exception {
        Recorder r = new Recorder();
        t.get(rank).start(r);
        return r;
    }

    @Test
    void theProviderIsFoundByNameAndDescribesItself() throws Exception {
        assertThat(Transports.require("udp").name()).isEqualTo("udp");
        List<Transport> t = jobs.open(Job.local(1), Map.of());
        assertThat(t.get(0).provider()).isEqualTo("udp");
        assertThat(t.get(0).maxPayloadLength()).isEqualTo(1L << 40);
        assertThat(t.get(0).maxHeaderLength()).isEqualTo(256);
    }

    @Test
    void anEndpointSaysItsCapabilitiesItselfAndPolls() throws Exception {
        List<Transport> t = jobs.open(Job.local(1), Map.of());
        assertThat(t.get(0).capabilities())
                .isEqualTo(Transports.require("udp").capabilities())
                .contains(TransportCapability.MULTI_PROCESS, TransportCapability.REPORTS_POLLERS_GONE)
                .doesNotContain(TransportCapability.INLINE_DELIVERY);
        assertThat(Polling.of(t.get(0))).as("reports pollers gone, so it polls").isSameAs(t.get(0));
    }


    @Test
    void messagesOfEverySizeArriveExactlyOnceInOrderWithIntactBytesAlsoToSelf() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        Recorder a = started(t, 0);
        Recorder b = started(t, 1);
        long[] sizes = {0, 1, 100, 1000, 8_000, 64_900, 65_000, 200_000, 1 << 20, 5 << 20};
        List<Long> crcs = new ArrayList<>();
        int id = 0;
        for (long size : sizes) {
            MemorySegment p = Recorder.payload(size + 7, id);
            crcs.add(Recorder.crc(p, 7, size));
            t.get(0).send(1, Recorder.header(id), 16, p, 7, size, id);
            t.get(0).send(0, Recorder.header(id), 16, p, 7, size, 1000 + id); // to self
            id++;
        }
        Recorder.await("all messages", 20_000, () -> b.messages.size() == sizes.length
                && a.messages.size() == sizes.length);
        Recorder.await("all completions", 10_000, () -> a.completions.size() == 2 * sizes.length);
        for (Recorder r : List.of(a, b)) {
            List<Recorder.Message> got = r.from(0);
            assertThat(got).hasSize(sizes.length);
            for (int i = 0; i < sizes.length; i++) {
                assertThat(got.get(i).id()).isEqualTo(i);
                assertThat(got.get(i).payloadLength()).isEqualTo(sizes[i]);
                assertThat(got.get(i).deposited()).isEqualTo(sizes[i]);
                assertThat(got.get(i).crc()).isEqualTo(sizes[i] == 0 ? 0 : crcs.get(i));
                assertThat(got.get(i).failed()).isFalse();
            }
            r.assertClean();
        }
        assertThat(a.completions.values()).containsOnly(true);
        assertThat(b.completions).isEmpty();
    }

    /**
     * A thread that polled for long and then says it stops (as PtlEQWait does before it parks) leaves the
     * receive path to the protocol thread: every message sent after the stop arrives although nobody polls.
     * How soon is not asserted here (a timed check failed under load: its median bound of 2 ms, against the
     * 4 ms grace, was a schedule, not the contract): that an announced stop ends the grace at once is
     * {@code PollHandoverTest}'s, with an injected clock, and what it is worth is the udp ping-pong's figure.
     */
    @Test
    void afterPollingStoppedTheProtocolThreadReceivesWithoutAPoller() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        started(t, 0);
        Recorder b = started(t, 1);
        MemorySegment p = Recorder.payload(8, 1);
        int trials = 7;
        for (int trial = 0; trial < trials; trial++) {
            int id = 100 + trial;
            pollFor(t, 40_000_000L, () -> t.get(0).send(1, Recorder.header(id), 16, p, 0, 8, id));
            Polling.of(t.get(1)).pollingStopped();
            int before = b.messages.size();
            t.get(0).send(1, Recorder.header(trial), 16, p, 0, 8, trial);
            Recorder.await("message " + trial + " with nobody polling", 5_000, () -> b.messages.size() > before);
        }
        assertThat(b.messages).hasSize(2 * trials);
        assertThat(b.messages.stream().map(Recorder.Message::id).filter(id -> id < trials))
                .as("the messages sent after each stop").containsExactly(0, 1, 2, 3, 4, 5, 6);
    }

    /**
     * An upper layer may leave work for its polling thread (Isotach lets a mark wait to ride on the reply); when that
     * thread stops polling, the protocol thread takes the receive path back and says so, whether the stop was
     * announced or only noticed after the grace. What the contract promises, whatever the scheduling: no call before
     * anyone polled; after polling stops, a call that comes after the last poll, from the protocol thread; at most one
     * call per change the protocol thread can see (a poll or an announced stop), and none while nobody polls. How many
     * stretches a run of polls makes depends on scheduling (a polling thread descheduled for longer than the grace
     * ends one), so the count is not exact: asserting 1 and then 2 failed 4-10 times in 30 runs at load 5-11.
     */
    @Test
    void whenPollingStopsTheProtocolThreadTellsTheHandler() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        started(t, 0);
        Recorder b = started(t, 1);
        AtomicLong events = new AtomicLong(); // polls, stops
        b.pollersGoneMark = events::get;
        MemorySegment p = Recorder.payload(8, 1);
        Thread.sleep(50);
        assertThat(b.pollersGone).as("nobody has polled yet").isEmpty();

        pollFor(t, 20_000_000L, () -> t.get(0).send(1, Recorder.header(1), 16, p, 0, 8, 1), events);
        events.incrementAndGet();
        Polling.of(t.get(1)).pollingStopped(); // announced: at once
        Recorder.await("the hand-back after an announced stop", 30_000, () -> !b.pollersGone.isEmpty());

        pollFor(t, 20_000_000L, () -> t.get(0).send(1, Recorder.header(2), 16, p, 0, 8, 2), events);
        long last = events.get(); // not announced: the protocol thread notices within its grace (at most 4 ms)
        Recorder.await("a hand-back after the last poll", 30_000,
                () -> b.pollersGoneMarks.stream().anyMatch(mark -> mark >= last));
        awaitQuiet(b);
        int calls = b.pollersGone.size();
        Thread.sleep(50);
        assertThat(b.pollersGone).as("no call while nobody polls").hasSize(calls);
        assertThat((long) calls).as("at most one call per poll or announced stop").isLessThanOrEqualTo(events.get());
        assertThat(b.pollersGone).as("from the protocol thread")
                .allSatisfy(name -> assertThat(name).isEqualTo("udp-rank-1"));
        Recorder.await("both messages", 30_000, () -> b.messages.size() == 2);
    }

    /** Waits (up to 5 s) until no call came for 100 ms: one may still follow the hand-back the test waited for. */
    private static void awaitQuiet(Recorder r) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        int seen;
        do {
            seen = r.pollersGone.size();
            Thread.sleep(100);
        } while (r.pollersGone.size() != seen && System.nanoTime() < deadline);
    }

    /**
     * Rank 1 polls for {@code nanos}; {@code send} runs after the first millisecond: a datagram wakes the protocol
     * thread from its socket wait, and from then on it stays away from the polled receive path and its grace grows.
     * Each poll is counted in {@code events} before it is made.
     */
    private static void pollFor(List<Transport> t, long nanos, Runnable send, AtomicLong events) {
        long start = System.nanoTime();
        boolean sent = false;
        while (System.nanoTime() - start < nanos) {
            events.incrementAndGet();
            Polling.of(t.get(1)).poll();
            if (!sent && System.nanoTime() - start > 1_000_000L) {
                send.run();
                sent = true;
            }
        }
    }

    /** {@link #pollFor(List, long, Runnable, java.util.concurrent.atomic.AtomicLong)}, polls not counted. */
    private static void pollFor(List<Transport> t, long nanos, Runnable send) {
        pollFor(t, nanos, send, new AtomicLong());
    }

    @Test
    void bytesBeyondTheAcceptedLengthAreDiscardedAndDiscardedMessagesStillComplete() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        Recorder a = started(t, 0);
        Recorder b = started(t, 1);
        MemorySegment p = Recorder.payload(300_000, 5);
        b.acceptLimit = 100_001;
        t.get(0).send(1, Recorder.header(1), 16, p, 0, 300_000, 1L);
        Recorder.await("first", 10_000, () -> b.messages.size() == 1);
        b.discardAll = true;
        t.get(0).send(1, Recorder.header(2), 16, p, 0, 300_000, 2L);
        Recorder.await("second", 10_000, () -> b.messages.size() == 2 && a.completions.size() == 2);
        List<Recorder.Message> got = b.from(0);
        assertThat(got.get(0).deposited()).isEqualTo(100_001);
        assertThat(got.get(0).crc()).isEqualTo(Recorder.crc(p, 0, 100_001));
        assertThat(got.get(1).deposited()).isZero();
        assertThat(got.get(1).payloadLength()).isEqualTo(300_000);
        assertThat(a.completions).containsEntry(1L, true).containsEntry(2L, true);
        b.assertClean();
    }

    @Test
    void concurrentSendersKeepPerThreadOrderAndEveryTokenCompletesOnce() throws Exception {
        List<Transport> t = jobs.open(Job.local(3), Map.of());
        Recorder[] r = {new Recorder(), new Recorder(), new Recorder()};
        for (int i = 0; i < 3; i++) {
            t.get(i).start(r[i]);
        }
        int threads = 6;
        int perThread = 300;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                int source = worker % 2; // ranks 0 and 1 send to rank 2
                for (int i = 0; i < perThread; i++) {
                    int id = worker << 16 | i;
                    MemorySegment p = Recorder.payload(i * 37 % 20_000, id);
                    t.get(source).send(2, Recorder.header(id), 16, p, 0, p.byteSize(), id);
                }
            }));
        }
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        Recorder.await("all", 30_000, () -> r[2].messages.size() == threads * perThread
                && r[0].completions.size() + r[1].completions.size() == threads * perThread);
        for (int w = 0; w < threads; w++) {
            int worker = w;
            List<Integer> seen = r[2].messages.stream().filter(m -> m.id() >>> 16 == worker)
                    .map(m -> m.id() & 0xffff).toList();
            assertThat(seen).as("per-thread FIFO of worker %d", w).isSorted().hasSize(perThread)
                    .doesNotHaveDuplicates();
        }
        for (Recorder.Message m : r[2].messages) {
            assertThat(m.crc()).isEqualTo(m.payloadLength() == 0 ? 0
                    : Recorder.crc(Recorder.payload(m.payloadLength(), m.id()), 0, m.payloadLength()));
        }
        assertThat(r[0].completions.values()).containsOnly(true);
        assertThat(r[1].completions.values()).containsOnly(true);
        r[2].assertClean();
        r[0].assertClean();
        r[1].assertClean();
    }

    @Test
    void badArgumentsAreRefusedAndAClosedEndpointRefusesSends() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        t.get(0).start(new Recorder());
        MemorySegment h = Recorder.header(1);
        assertThatThrownBy(() -> t.get(0).send(2, h, 16, MemorySegment.NULL, 0, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.get(0)
                .send(1, MemorySegment.ofArray(new byte[300]), 257, MemorySegment.NULL, 0, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.get(0).send(1, h, 16, MemorySegment.ofArray(new byte[4]), 2, 3, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.get(0).start(new Recorder())).isInstanceOf(IllegalStateException.class);
        t.get(0).close();
        assertThat(t.get(0).isPeerAlive(0)).isFalse();
        assertThatThrownBy(() -> t.get(0).send(1, h, 16, MemorySegment.NULL, 0, 0, 1))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPayloadWhoseMemoryIsGoneFailsAtBothEnds() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        Recorder a = started(t, 0);
        Recorder b = started(t, 1);
        MemorySegment gone;
        try (Arena arena = Arena.ofShared()) {
            gone = arena.allocate(200_000);
        }
        t.get(0).send(1, Recorder.header(9), 16, gone, 0, 200_000, 9L);
        Recorder.await("failed message", 10_000, () -> b.messages.size() == 1 && a.completions.size() == 1);
        assertThat(b.messages.element().failed()).isTrue();
        assertThat(a.completions).containsEntry(9L, false);
        // and the connection goes on
        t.get(0).send(1, Recorder.header(10), 16, Recorder.payload(10, 1), 0, 10, 10L);
        Recorder.await("next", 10_000, () -> b.messages.size() == 2 && a.completions.size() == 2);
        assertThat(a.completions).hasSize(2).containsEntry(10L, true);
    }

    @Test
    void aDestinationConfinedToAnotherThreadFailsTheMessageAtBothEndsAndLosesNothing() throws Exception {
        List<Transport> t = jobs.open(Job.local(2), Map.of());
        Recorder a = started(t, 0);
        Recorder b = started(t, 1);
        try (Arena confined = Arena.ofConfined()) {
            b.destination = confined.allocate(100); // the protocol thread cannot write it
            t.get(0).send(1, Recorder.header(1), 16, Recorder.payload(100, 1), 0, 100, 1L);
            Recorder.await("failed message", 10_000, () -> b.messages.size() == 1 && a.completions.size() == 1);
            assertThat(b.messages.element().failed()).isTrue();
            assertThat(a.completions).containsEntry(1L, false);
            b.destination = null;
            t.get(0).send(1, Recorder.header(2), 16, Recorder.payload(100, 2), 0, 100, 2L);
            Recorder.await("next", 10_000, () -> b.messages.size() == 2 && a.completions.size() == 2);
            assertThat(a.completions).containsEntry(2L, true);
            assertThat(b.violations).isEmpty();
        }
    }
}
