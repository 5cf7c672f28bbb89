package org.portals3j.transport.gm.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.Availability;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.gm.GmOptions;
import org.portals3j.transport.gm.GmTransportProvider;
import org.portals3j.transport.internal.PollHandover;

/**
 * The polling hand-over of the gm endpoint (Polling, REPORTS_POLLERS_GONE) over the real libgm. The receiving
 * endpoint's hand-over runs on a frozen clock, so that once the test's thread has polled, the progress thread stays
 * away for as long as the test wants: who runs each callback is then fixed, not a matter of scheduling.
 */
class GmPollingTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final Arena arena = Arena.ofShared();
    private List<Transport> endpoints = List.of();

    @AfterEach
    void closeAll() {
        endpoints.forEach(Transport::close);
    }

    /** Records which thread each callback ran on; asks the endpoint to poll from inside a callback. */
    private static final class Handler implements PollingHandler {
        final ConcurrentLinkedQueue<Thread> receivedOn = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Boolean> pollsInsideCallbacks = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Thread> pollersGoneOn = new ConcurrentLinkedQueue<>();
        final AtomicInteger completions = new AtomicInteger();
        @Nullable GmEndpoint self;

        @Override
        public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
            deposit.accept(MemorySegment.ofArray(new byte[(int) payloadLength]), 0, payloadLength);
        }

        @Override
        public void onDeposited(int source, Deposit deposit) {
            receivedOn.add(Thread.currentThread());
            GmEndpoint s = self;
            if (s != null) {
                pollsInsideCallbacks.add(s.poll());
            }
        }

        @Override
        public void onSendComplete(long token, boolean delivered) {
            completions.incrementAndGet();
        }

        @Override
        public void onPeerFailure(int peer) {
        }

        @Override
        public void onPollersGone() {
            pollersGoneOn.add(Thread.currentThread());
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + PATIENCE + ": " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /** Whether {@code t} is parked staying away from the receive path (not inside gmx_poll). */
    private static boolean stayingAway(Thread t) {
        return t.getState() == Thread.State.TIMED_WAITING && LockSupport.getBlocker(t) instanceof ReceivePath;
    }

    /** Two started endpoints; the receiver's hand-over on the frozen clock. */
    private record Pair(GmEndpoint sender, GmEndpoint receiver, Handler senderHandler, Handler handler,
                        AtomicLong frozen, Thread progress) {
    }

    private Pair open(String provider) throws TransportException {
        Availability a = GmTransportProvider.availability(provider);
        Assumptions.assumeTrue(a.available(), () -> "gm over " + provider + " is not available: " + a.reason());
        endpoints = LocalJob.openAll(new GmTransportProvider(), Job.local(2), IdleMode.BACKOFF,
                Map.of(GmOptions.PROVIDER, provider));
        GmEndpoint sender = (GmEndpoint) endpoints.get(0);
        GmEndpoint receiver = (GmEndpoint) endpoints.get(1);
        Handler senderHandler = new Handler();
        Handler handler = new Handler();
        handler.self = receiver;
        AtomicLong frozen = new AtomicLong(1_000_000_000_000L);
        receiver.start(handler, frozen::get);
        sender.start(senderHandler);
        @Nullable Thread started = receiver.progressThread();
        if (started == null) {
            throw new AssertionError("start made no progress thread");
        }
        return new Pair(sender, receiver, senderHandler, handler, frozen, started);
    }

    private static long stayedAway(GmEndpoint e) {
        return e.counters().getOrDefault("progressStayedAway", -1L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void aPollingThreadReceivesOnItsOwnThreadAndTheProgressThreadTakesOverWhenItStops(String provider)
            throws Exception {
        Pair pair = open(provider);
        GmEndpoint sender = pair.sender();
        GmEndpoint receiver = pair.receiver();
        Handler senderHandler = pair.senderHandler();
        Handler handler = pair.handler();
        AtomicLong frozen = pair.frozen();
        Thread progress = pair.progress();
        MemorySegment header = arena.allocate(8);
        MemorySegment payload = arena.allocate(8);

        // polling: the progress thread leaves the receive path to this thread, which then runs every callback
        await("the progress thread stays away while this thread polls", () -> {
            receiver.poll();
            return stayingAway(progress);
        });
        int polledTrue = 0;
        for (int i = 0; i < 3; i++) {
            sender.send(1, header, 8, payload, 0, 8, 10 + i);
            int expected = i + 1;
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (handler.receivedOn.size() < expected && System.nanoTime() - deadline < 0) {
                polledTrue += receiver.poll() ? 1 : 0;
            }
        }
        assertThat(handler.receivedOn).as("every message delivered on the polling thread")
                .containsExactly(Thread.currentThread(), Thread.currentThread(), Thread.currentThread());
        assertThat(polledTrue).as("poll said it did something when it delivered").isGreaterThanOrEqualTo(1);
        assertThat(handler.pollsInsideCallbacks).as("poll from inside a callback does nothing")
                .containsOnly(false);
        assertThat(handler.pollersGoneOn).as("nobody stopped polling yet").isEmpty();

        // the FINs of the polled messages rode on nothing: this thread's next rounds send them, completing the sends
        await("the sender's completions", () -> {
            receiver.poll();
            return senderHandler.completions.get() == 3;
        });

        // the poller stops (the clock moves on so that the stop is news): the progress thread takes over at once
        frozen.addAndGet(Duration.ofSeconds(1).toNanos());
        receiver.pollingStopped();
        await("the progress thread hears that the pollers have gone", () -> !handler.pollersGoneOn.isEmpty());
        assertThat(handler.pollersGoneOn).containsOnly(progress);
        sender.send(1, header, 8, payload, 0, 8, 20);
        await("a message nobody polls for", () -> handler.receivedOn.size() == 4);
        assertThat(List.copyOf(handler.receivedOn).get(3)).as("delivered by the progress thread").isSameAs(progress);
        await("its completion", () -> senderHandler.completions.get() == 4);
    }

    /**
     * A thread that polls inside a wait (waitStarted) keeps the progress thread away past the grace after which it
     * would take over from a poller that just stopped; once the wait ends (waitEnded), it takes over at its next look.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void aThreadPollingInsideAWaitKeepsTheProgressThreadAwayUntilTheWaitEnds(String provider)
            throws TransportException {
        Pair pair = open(provider);
        GmEndpoint receiver = pair.receiver();
        Thread progress = pair.progress();
        await("the progress thread stays away while this thread polls", () -> {
            receiver.poll();
            return stayingAway(progress);
        });
        receiver.waitStarted();
        // past the longest grace, within the look of a wait: only the wait keeps the progress thread away now
        pair.frozen().addAndGet(PollHandover.MAX_GRACE_NANOS + 1_000_000L);
        long looks = stayedAway(receiver);
        LockSupport.unpark(progress);
        await("the progress thread looks again and stays away", () -> stayedAway(receiver) > looks);
        assertThat(pair.handler().pollersGoneOn).as("it did not take over").isEmpty();

        receiver.waitEnded();
        LockSupport.unpark(progress);
        await("the progress thread takes over once the wait ended", () -> !pair.handler().pollersGoneOn.isEmpty());
        assertThat(pair.handler().pollersGoneOn).containsOnly(progress);
    }
}
