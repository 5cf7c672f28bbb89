package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.portals3j.runtime.Job;
import org.portals3j.transport.Transport;

/**
 * Loss, duplication, reordering and bit flips injected on every endpoint's receive side: every message is
 * still delivered exactly once, in order, with intact bytes, in both directions at once.
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
        Map<String, Long> c = t.get(1).counters();
        if (loss > 0) {
            assertThat(t.get(0).counters().getOrDefault("retransmits", 0L)).isPositive();
        }
        if (corrupt > 0) {
            assertThat(c.getOrDefault("drop.crc", 0L)).isPositive();
        }
        if (duplicate > 0) { // a datagram delivered twice carries one counter: the second copy is a replay
            assertThat(c.getOrDefault("drop.replay", 0L)).isPositive();
        }
    }
}
