package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Helpers shared by the kit's signal, barrier, noniso and shared-memory tests: counters by name, waiting for
 * logical time, opening an unopened job in parallel, sends that retry while the buffers are full.
 */
final class IsoTestSupport {
    private IsoTestSupport() {
    }

    /** A counter of {@code net} by name; fails naming the counters that exist when there is none by that name. */
    static long counter(IsotachNet net, String name) {
        Map<String, Long> all = net.counters();
        Long v = all.get(name);
        if (v == null) {
            throw new AssertionError("no counter '" + name + "' in " + all.keySet());
        }
        return v;
    }

    /** Opens every host of an unopened job with {@code interfaces}, in parallel (open_net blocks until all sync). */
    static void openAll(IsotachJob job, Set<Interface> interfaces) {
        List<Future<Integer>> opening = new ArrayList<>();
        for (int h = 0; h < job.size(); h++) {
            IsotachNet net = job.net(h);
            opening.add(job.submit(() -> net.openNet(interfaces, TckTransport.startPatience())));
        }
        for (int h = 0; h < opening.size(); h++) {
            assertThat(get(opening.get(h))).as("open_net on host %d", h).isEqualTo(IsotachNet.SUCCESS);
        }
    }

    /** The result of {@code f}, waiting at most the kit's patience. */
    static <T> T get(Future<T> f) {
        try {
            return f.get(TckTransport.patience().toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("a job thread did not finish: " + e, e);
        }
    }

    /** The highest pulse any host has completed. */
    static long maxLogicalTime(IsotachJob job) {
        long max = -1;
        for (int h = 0; h < job.size(); h++) {
            max = Math.max(max, job.net(h).logicalTime());
        }
        return max;
    }

    /**
     * Polls every host until each has completed pulse {@code pulse} and at least the kit's quiet period has passed:
     * everything due by then has been processed everywhere.
     */
    static void awaitPulse(IsotachJob job, long pulse) {
        long quietEnd = System.nanoTime() + TckTransport.quietPeriod().toNanos();
        job.awaitCondition("every host to reach pulse " + pulse, () -> {
            for (int h = 0; h < job.size(); h++) {
                if (job.net(h).logicalTime() < pulse) {
                    return false;
                }
            }
            return System.nanoTime() >= quietEnd;
        });
    }

    /** Lets logical time run {@code pulses} past the furthest host (and the quiet period pass), polling all. */
    static void letTimePass(IsotachJob job, int pulses) {
        awaitPulse(job, maxLogicalTime(job) + pulses);
    }

    /** Polls every host for {@code period}. */
    static void pollFor(IsotachJob job, Duration period) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() < end) {
            job.pollAll();
            Thread.onSpinWait();
        }
    }

    /** isoSend, retried (polling every host) while the buffers are full. */
    static void isoSend(IsotachJob job, int from, int to, byte[] data, boolean last) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (job.net(from).isoSend(to, data, last) != IsotachNet.SUCCESS) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("iso_send " + from + " -> " + to + " kept failing");
            }
            job.pollAll();
        }
    }

    /** send (noniso), retried (polling every host) while the send buffer is full. */
    static void send(IsotachJob job, int from, int to, byte[] data) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (job.net(from).send(to, data) != IsotachNet.SUCCESS) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("send " + from + " -> " + to + " kept failing");
            }
            job.pollAll();
        }
    }

    /** The next delivery at {@code host}, which must be a bs-notice. */
    static Delivered awaitNotice(IsotachJob job, int host) {
        Delivered d = job.awaitIso(host);
        assertThat(d.isNotice()).as("host %d expected a bs-notice but got %s", host, d).isTrue();
        return d;
    }

    /** Asserts that {@code host} has nothing to iso_receive now. */
    static void assertNoIsoDelivery(IsotachJob job, int host) {
        IsoMessage m = new IsoMessage();
        int rc = job.net(host).isoReceive(m);
        assertThat(rc).as("host %d iso_receive should find nothing, but got %s", host,
                rc == IsotachNet.SUCCESS ? Delivered.of(m) : "rc " + rc).isEqualTo(IsotachNet.NO_MESSAGE);
    }

    /** Asserts that {@code host} has no noniso message now. */
    static void assertNoNonisoMessage(IsotachJob job, int host) {
        NonisoMessage m = new NonisoMessage();
        int rc = job.net(host).receive(m);
        assertThat(rc).as("host %d receive should find nothing, got a message from %d of %d bytes", host,
                m.senderId(), m.size()).isEqualTo(IsotachNet.NO_MESSAGE);
    }

    /** A payload of {@code size} bytes (at least 8): sequence number, sender, then a pattern derived from both. */
    static byte[] payload(int sender, int seq, int size) {
        byte[] b = new byte[Math.max(size, 8)];
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(seq).putInt(sender);
        for (int i = 8; i < b.length; i++) {
            b[i] = (byte) (sender * 31 + seq * 7 + i);
        }
        return b;
    }

    /** An exact-size payload (may be shorter than 8 bytes: then only the pattern). */
    static byte[] exactPayload(int sender, int seq, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (sender * 31 + seq * 7 + i);
        }
        return b;
    }

    /** The sequence number of a {@link #payload}. */
    static int seq(byte[] data) {
        return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }
}
