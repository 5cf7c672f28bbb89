package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/**
 * Loss, duplication, reordering, bit flips, delay and jitter injected on every endpoint's receive side: every
 * message is still delivered exactly once, in order, with intact bytes, in both directions at once.
 */
class FaultInjectionTest {
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    @ParameterizedTest(name = "loss={0} duplicate={1} reorder={2} corrupt={3}")
    @CsvSource({
        "0.05, 0, 0, 0",
        "0.20, 0, 0, 0",
        "0, 0.2, 0, 0",
        "0, 0, 0.2, 0",
        "0, 0, 0, 0.05",
        "0.05, 0.05, 0.05, 0.02",
    })
    void everyMessageArrivesOnceInOrderIntact(double loss, double duplicate, double reorder, double corrupt)
            throws Exception {
        Map<String, String> options = new HashMap<>();
        options.put(UdpOptions.FAULT_LOSS, Double.toString(loss));
        options.put(UdpOptions.FAULT_DUPLICATE, Double.toString(duplicate));
        options.put(UdpOptions.FAULT_REORDER, Double.toString(reorder));
        options.put(UdpOptions.FAULT_CORRUPT, Double.toString(corrupt));
        Map<String, Long> c = exchange(options);
        if (loss > 0) {
            assertThat(c.getOrDefault("retransmits", 0L)).isPositive();
        }
        if (corrupt > 0) {
            assertThat(c.getOrDefault("drop.crc", 0L)).isPositive();
        }
        if (duplicate > 0) { // a datagram delivered twice carries one counter: the second copy is a replay
            assertThat(c.getOrDefault("drop.replay", 0L)).isPositive();
        }
    }

    /**
     * Delay (with jitter, and some datagrams later still, so that the ones behind overtake them), alone and
     * with loss: still exactly once, in order, intact. Correctness only: how fast is the benchmark's business.
     */
    @ParameterizedTest(name = "delay={0}us jitter={1}us late={2} loss={3}")
    @CsvSource({
        "10000, 0, 0, 0",
        "10000, 0, 0.25, 0",
        "10000, 5000, 0, 0",
        "5000, 2000, 0.25, 0.05",
    })
    void everyMessageArrivesOnceInOrderIntactThroughDelayJitterAndReordering(long delay, long jitter, double late,
                                                                              double loss) throws Exception {
        Map<String, String> options = new HashMap<>();
        options.put(UdpOptions.FAULT_DELAY_MICROS, Long.toString(delay));
        options.put(UdpOptions.FAULT_JITTER_MICROS, Long.toString(jitter));
        options.put(UdpOptions.FAULT_LATE, Double.toString(late));
        options.put(UdpOptions.FAULT_LOSS, Double.toString(loss));
        Map<String, Long> c = exchange(options);
        assertThat(c.getOrDefault("fault.delayed", 0L)).isPositive();
        if (late > 0) {
            assertThat(c.getOrDefault("fault.late", 0L)).isPositive();
        }
    }

    /**
     * Sends 200 messages each way at once over a 2-rank job with {@code options}, checks that each side got every
     * message once, in order, intact, and every send completed true; returns the counters of both ends, added.
     */
    private Map<String, Long> exchange(Map<String, String> options) throws Exception {
        options.put(UdpOptions.FAULT_SEED, "42");
        options.put(UdpOptions.DATAGRAM_SIZE, "8972");
        List<Transport> t = jobs.open(Job.local(2), options);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t.get(0).start(a);
        t.get(1).start(b);
        int count = 200;
        long[] sizes = new long[count];
        MemorySegment[] payloads = new MemorySegment[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = i % 10 == 0 ? 100_000 + i : (i * 131) % 3000;
            payloads[i] = Recorder.payload(sizes[i], i);
        }
        for (int i = 0; i < count; i++) {
            t.get(0).send(1, Recorder.header(i), 16, payloads[i], 0, sizes[i], i);
            t.get(1).send(0, Recorder.header(i), 16, payloads[i], 0, sizes[i], i);
        }
        Recorder.await("all messages both ways", 30_000, () -> a.messages.size() >= count && b.messages.size() >= count
                && a.completions.size() == count && b.completions.size() == count);
        Thread.sleep(50); // a late duplicate delivery would show up now
        for (Recorder r : List.of(a, b)) {
            List<Recorder.Message> got = r.messages.stream().toList();
            assertThat(got).hasSize(count);
            for (int i = 0; i < count; i++) {
                Recorder.Message m = got.get(i);
                assertThat(m.id()).isEqualTo(i);
                assertThat(m.deposited()).isEqualTo(sizes[i]);
                assertThat(m.failed()).isFalse();
                assertThat(m.crc()).isEqualTo(sizes[i] == 0 ? 0 : Recorder.crc(payloads[i], 0, sizes[i]));
            }
            assertThat(r.completions.values()).containsOnly(true);
            r.assertClean();
        }
        Map<String, Long> both = new HashMap<>(t.get(0).counters());
        t.get(1).counters().forEach((k, v) -> both.merge(k, v, Long::sum));
        return both;
    }
}
