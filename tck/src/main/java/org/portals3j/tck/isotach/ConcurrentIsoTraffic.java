package org.portals3j.tck.isotach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Every host driven by its own thread, as N applications would drive N hosts: each runs its plan (isochrons,
 * signals, barrier calls) while receiving everything that arrives, until every host has all the messages and
 * notices it must get; then all keep receiving for the quiet period so that an extra delivery would be seen.
 * Concurrent issuers are what puts several senders' isochrons into one pulse.
 *
 * <p>Payloads carry the tag of {@link IsoTraffic}; the phase of a message is the number of signal and barrier
 * calls its sender made before issuing it.
 */
final class ConcurrentIsoTraffic {
    sealed interface Action permits Iso, Signal, Barrier {
    }

    /** One isochron: one message to each destination in order, of {@code size} bytes. */
    record Iso(int[] dests, int size) implements Action {
    }

    /** iso_send_signal(channel). */
    record Signal(int channel) implements Action {
    }

    /** iso_barrier(channel, mode); the host then waits for nothing: its notice is expected among its deliveries. */
    record Barrier(int channel, BarrierMode mode) implements Action {
    }

    private final IsotachJob job;
    private final int n;
    private final List<List<Action>> plans;
    private final String context;
    private final List<List<Delivered>> got = new ArrayList<>();
    private final List<Set<String>> expected = new ArrayList<>();
    private final int[] signalChannelsExpected;
    private final int[] barriersExpected;

    /**
     * @param registeredSignals for each host, the signal channels it registered (bit c = channel c): it must see a
     *     notice for every channel some plan signals on, if registered
     */
    ConcurrentIsoTraffic(IsotachJob job, List<List<Action>> plans, int[] registeredSignals, String context) {
        this.job = job;
        this.n = job.size();
        this.plans = plans;
        this.context = context;
        this.signalChannelsExpected = new int[n];
        this.barriersExpected = new int[n];
        int signalled = 0;
        for (int h = 0; h < n; h++) {
            got.add(new ArrayList<>());
            expected.add(new HashSet<>());
        }
        for (int s = 0; s < n; s++) {
            int seq = 0;
            for (Action a : plans.get(s)) {
                switch (a) {
                    case Iso iso -> {
                        for (int d : iso.dests()) {
                            expected.get(d).add(s + "#" + seq++);
                        }
                    }
                    case Signal sig -> signalled |= 1 << sig.channel();
                    case Barrier b -> barriersExpected[s]++;
                }
            }
        }
        for (int h = 0; h < n; h++) {
            signalChannelsExpected[h] = signalled & registeredSignals[h];
        }
    }

    /** Runs every plan; throws the first failure of any host (with the context) after all threads stopped. */
    void run(Duration timeout) {
        AtomicInteger finished = new AtomicInteger();
        AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int h = 0; h < n; h++) {
            int host = h;
            job.submit(() -> {
                try {
                    go.await();
                    drive(host, finished, failure, deadline);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    stopped.countDown();
                }
                return null;
            });
        }
        go.countDown();
        try {
            if (!stopped.await(timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                // a host's thread is kept inside the layer: closing the job makes its sends fail and lets it go
                job.close();
                throw new AssertionError("a host's thread did not come back from an Isotach call within " + timeout
                        + " [" + context + "]");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted [" + context + "]", e);
        }
        Throwable t = failure.get();
        if (t instanceof AssertionError ae) {
            throw ae;
        }
        if (t != null) {
            throw new AssertionError(t + " [" + context + "]", t);
        }
    }

    private void drive(int host, AtomicInteger finished, AtomicReference<@Nullable Throwable> failure, long deadline) {
        IsotachNet net = job.net(host);
        IsoMessage m = new IsoMessage();
        List<Delivered> mine = got.get(host);
        List<Action> plan = plans.get(host);
        int action = 0;
        int inIso = 0;
        int seq = 0;
        int iso = 0;
        int phase = 0;
        boolean done = false;
        int messageCount = 0;
        int signalBits = 0;
        int barrierNotices = 0;
        while (true) {
            if (failure.get() != null) {
                return;
            }
            if (action < plan.size()) {
                switch (plan.get(action)) {
                    case Iso a -> {
                        int dest = a.dests()[inIso];
                        boolean last = inIso == a.dests().length - 1;
                        int flag = phase | (IsoTraffic.isNet(host, a.dests()) ? 0x80 : 0);
                        byte[] data = IsoTraffic.payload(host, seq, iso, inIso, a.dests().length, flag, a.size());
                        if (net.isoSend(dest, data, last) == IsotachNet.SUCCESS) {
                            seq++;
                            inIso++;
                            if (last) {
                                inIso = 0;
                                iso++;
                                action++;
                            }
                        }
                    }
                    case Signal s -> {
                        if (net.isoSendSignal(s.channel()) == IsotachNet.SUCCESS) {
                            phase++;
                            action++;
                        }
                    }
                    case Barrier b -> {
                        int rc = net.isoBarrier(b.channel(), b.mode());
                        if (rc != IsotachNet.SUCCESS) {
                            throw new AssertionError("host " + host + ": iso_barrier(" + b.channel() + ", " + b.mode()
                                    + ") returned " + rc + " [" + context + "]");
                        }
                        phase++;
                        action++;
                    }
                }
            }
            for (int k = 0; k < 8; k++) {
                if (net.isoReceive(m) != IsotachNet.SUCCESS) {
                    break;
                }
                Delivered d = IsoTraffic.copy(m);
                long now = net.logicalTime();
                if (now < d.pulse()) {
                    throw new AssertionError("host " + host + " delivered " + d + " at logical time " + now
                            + ", before its pulse ended (I-001) [" + context + "]");
                }
                mine.add(d);
                if (d.isNotice()) {
                    signalBits |= d.bits() >> 2;
                    if ((d.bits() & 0x02) != 0) {
                        barrierNotices++;
                    }
                } else {
                    messageCount++;
                }
            }
            if (!done && action == plan.size() && messageCount >= expected.get(host).size()
                    && (signalBits & signalChannelsExpected[host]) == signalChannelsExpected[host]
                    && barrierNotices >= barriersExpected[host]) {
                done = true;
                finished.incrementAndGet();
            }
            if (done && finished.get() == n) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("host " + host + " timed out: plan step " + action + "/" + plan.size() + ", "
                        + messages(host).size() + "/" + expected.get(host).size() + " messages, notices "
                        + notices(host) + ", logical time " + net.logicalTime() + ", counters " + net.counters()
                        + " [" + context + "]");
            }
        }
        // Everyone is complete: anything more would be a duplicate or a stray notice.
        long quiet = System.nanoTime() + TckTransport.quietPeriod().toNanos();
        while (System.nanoTime() < quiet) {
            if (net.isoReceive(m) == IsotachNet.SUCCESS) {
                mine.add(IsoTraffic.copy(m));
            }
        }
    }

    /** Everything {@code host} delivered, messages and notices, in order. */
    List<Delivered> all(int host) {
        return got.get(host);
    }

    List<List<Delivered>> allHosts() {
        return got;
    }

    List<Delivered> messages(int host) {
        return Delivered.messagesOf(got.get(host));
    }

    List<Delivered> notices(int host) {
        return Delivered.noticesOf(got.get(host));
    }

    /** The sender#seq keys each host must receive. */
    List<Set<String>> expected() {
        return expected;
    }

    /** The signal channels (bit c = channel c) host {@code host} must be notified of. */
    int signalChannelsExpected(int host) {
        return signalChannelsExpected[host];
    }

    int barriersExpected(int host) {
        return barriersExpected[host];
    }

    String context() {
        return context;
    }
}
