package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;

/**
 * {@code udp.mac=crc32c}: off by default, refused without {@code udp.allowUnauthenticated=true}, delivers every
 * message intact, drops and counts a corrupted datagram, and is not mixed with an authenticated rank.
 */
class IntegrityOnlyModeTest {
    private static final Map<String, String> CRC32C = Map.of(UdpOptions.MAC, "crc32c",
            UdpOptions.ALLOW_UNAUTHENTICATED, "true");
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    @Test
    void theDefaultAuthenticates() throws Exception {
        assertThat(UdpOptions.parse(Map.of()).mac()).isEqualTo("auto");
        assertThat(UdpOptions.parse(Map.of(UdpOptions.ALLOW_UNAUTHENTICATED, "true")).mac())
                .as("the permission alone changes nothing").isEqualTo("auto");
        assertThat(UdpTransportProvider.notes(Map.of())).singleElement().asString()
                .startsWith("datagrams authenticated with the job key: udp.mac=auto");
    }

    @Test
    void crc32cAloneIsRefusedWithTheRiskAndWhatToSay() {
        assertThatThrownBy(() -> UdpOptions.parse(Map.of(UdpOptions.MAC, "crc32c")))
                .isInstanceOf(TransportException.class)
                .hasMessage("udp.mac=crc32c turns datagram authentication off: anyone who can send to this job's"
                        + " ports could inject, alter or replay datagrams into the job. Use it only on a private,"
                        + " trusted network, and say so with udp.allowUnauthenticated=true; otherwise leave udp.mac"
                        + " unset (auto, authenticated)");
        assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of(UdpOptions.MAC, "crc32c",
                UdpOptions.ALLOW_UNAUTHENTICATED, "false")))
                .isInstanceOf(TransportException.class).hasMessageContaining("udp.allowUnauthenticated=true");
        assertThatThrownBy(() -> UdpOptions.parse(Map.of(UdpOptions.MAC, "crc32c",
                UdpOptions.ALLOW_UNAUTHENTICATED, "yes")))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("bad value 'yes' for udp.allowUnauthenticated: expected true or false");
    }

    @Test
    void portalsInfoSaysWhenDatagramsAreNotAuthenticated() {
        List<String> notes = UdpTransportProvider.notes(Map.of(JobRuntime.TRANSPORT_OPTIONS,
                "udp.mac=crc32c,udp.allowUnauthenticated=true"));
        assertThat(notes.getFirst()).startsWith("UNAUTHENTICATED: udp.mac=crc32c (PORTALS_TRANSPORT_OPTIONS)");
        assertThat(String.join(" ", notes)).contains("inject, alter or replay").contains("private, trusted networks");
        assertThat(UdpTransportProvider.notes(Map.of(JobRuntime.TRANSPORT_OPTIONS, "udp.mac=crc32c")))
                .singleElement().asString().startsWith("PORTALS_TRANSPORT_OPTIONS is refused: udp.mac=crc32c turns");
    }

    @Test
    void everyMessageArrivesIntactAndCorruptedDatagramsAreDroppedAndCounted() throws Exception {
        Map<String, String> options = new HashMap<>(CRC32C);
        options.put(UdpOptions.FAULT_CORRUPT, "0.05");
        options.put(UdpOptions.FAULT_SEED, "7");
        List<Transport> t = jobs.open(Job.local(2), options);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t.get(0).start(a);
        t.get(1).start(b);
        int count = 60;
        long[] sizes = new long[count];
        MemorySegment[] payloads = new MemorySegment[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = i % 6 == 0 ? 300_000 + i : (i * 977) % 9000; // 65000-byte datagrams and small ones
            payloads[i] = Recorder.payload(sizes[i], i);
        }
        for (int i = 0; i < count; i++) {
            t.get(0).send(1, Recorder.header(i), 16, payloads[i], 0, sizes[i], i);
            t.get(1).send(0, Recorder.header(i), 16, payloads[i], 0, sizes[i], i);
        }
        Recorder.await("all messages both ways", 60_000, () -> a.messages.size() >= count
                && b.messages.size() >= count && a.completions.size() == count && b.completions.size() == count);
        for (Recorder r : List.of(a, b)) {
            List<Recorder.Message> got = r.messages.stream().toList();
            assertThat(got).hasSize(count);
            for (int i = 0; i < count; i++) {
                Recorder.Message m = got.get(i);
                assertThat(m.id()).isEqualTo(i);
                assertThat(m.deposited()).isEqualTo(sizes[i]);
                assertThat(m.crc()).isEqualTo(sizes[i] == 0 ? 0 : Recorder.crc(payloads[i], 0, sizes[i]));
            }
            assertThat(r.completions.values()).containsOnly(true);
            r.assertClean();
        }
        // a flip in the (zero) MAC field, which the CRC does not cover, is counted as drop.mac
        long crcDrops = t.get(0).counters().getOrDefault("drop.crc", 0L)
                + t.get(1).counters().getOrDefault("drop.crc", 0L);
        assertThat(crcDrops).as("corrupted datagrams dropped").isPositive();
    }

    @Test
    void anAuthenticatedRankDropsIntegrityOnlyDatagramsAsUnauthenticated() throws Exception {
        Job job = Job.local(2);
        Transport open = jobs.openRank(job, 0, CRC32C);
        Transport authenticated = jobs.openRank(job, 1, Map.of());
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        open.start(a);
        authenticated.start(b);
        open.send(1, Recorder.header(1), 16, Recorder.payload(100, 1), 0, 100, 1);
        Recorder.await("the datagram dropped for its MAC", 30_000,
                () -> authenticated.counters().getOrDefault("drop.mac", 0L) > 0);
        assertThat(b.messages).isEmpty();
    }
}
