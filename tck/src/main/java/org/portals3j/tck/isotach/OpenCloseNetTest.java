package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.tck.isotach.IsoTestSupport.counter;
import static org.portals3j.tck.isotach.IsoTestSupport.get;
import static org.portals3j.tck.isotach.IsoTestSupport.isoSend;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.send;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachConfigFile;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.runtime.LocalJob;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;

/**
 * open_net and try_close_net (Isotach report App. A.1, pp. 94-95; §5.2, p. 35;
 * §5.7, p. 39): interfaces, synchronisation, configuration, shutdown.
 */
class OpenCloseNetTest {

    static final Set<Interface> MBM = EnumSet.of(Interface.NONISO, Interface.ISO_MBM);
    static final Set<Interface> SMM = EnumSet.of(Interface.NONISO, Interface.ISO_SMM);

    @Test
    @SpecAssertion("I-125")
    void isotachMessagePassingAndSharedMemoryExcludeEachOther() {
        try (IsotachJob job = IsotachJob.builder(2).unopened().open()) {
            IsotachNet net = job.net(0);
            assertThat(net.openNet(EnumSet.of(Interface.ISO_MBM, Interface.ISO_SMM), Duration.ofSeconds(1)))
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(net.openNet(EnumSet.allOf(Interface.class), Duration.ofSeconds(1)))
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(net.openNet(EnumSet.noneOf(Interface.class), Duration.ofSeconds(1)))
                    .isEqualTo(IsotachNet.FAILURE);
            // the refusals left the layer unopened: a valid open still works, on every host
            IsoTestSupport.openAll(job, SMM);
            assertThat(net.openNet(SMM, Duration.ofSeconds(1))).as("already open").isEqualTo(IsotachNet.FAILURE);
            // an SMM application has no Isotach message passing
            assertThat(net.isoSend(1, payload(0, 0, 8), true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoWrite(0, 5, true)).isEqualTo(IsotachNet.SUCCESS);
            IsoVar v = new IsoVar();
            assertThat(job.net(1).isoRead(0, v, true)).isEqualTo(IsotachNet.SUCCESS);
            job.awaitCondition("the read returns", v::isValid);
        }
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            IsoVar v = new IsoVar();
            assertThat(net.isoRead(0, v, true)).as("an MBM application has no shared memory")
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoWrite(0, 1, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoSched(0, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoAssign(0, 1, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(v.isValid()).isFalse();
        }
    }

    /** Hosts opened at different times: the early ones wait in open_net until the last one is there. */
    @Test
    @SpecAssertion({"I-121", "I-133"})
    void openNetReturnsOnlyOnceEveryHostIsThereHoweverLateItStarts() {
        try (IsotachJob job = IsotachJob.builder(3).interfaces(MBM).unopened().open()) {
            List<Future<Integer>> early = new ArrayList<>();
            for (int h = 0; h < 2; h++) {
                IsotachNet net = job.net(h);
                early.add(job.submit(() -> net.openNet(MBM, TckTransport.patience())));
            }
            sleep(TckTransport.quietPeriod().multipliedBy(3));
            for (Future<Integer> f : early) {
                assertThat(f.isDone()).as("open_net returned before host 2 opened").isFalse();
            }
            assertThat(job.net(2).openNet(MBM, TckTransport.patience())).isEqualTo(IsotachNet.SUCCESS);
            for (Future<Integer> f : early) {
                assertThat(get(f)).isEqualTo(IsotachNet.SUCCESS);
            }
            for (int s = 0; s < 3; s++) {
                isoSend(job, s, (s + 1) % 3, payload(s, s, 8), true);
                send(job, s, (s + 2) % 3, payload(s, 10 + s, 8));
            }
            for (int h = 0; h < 3; h++) {
                assertThat(job.awaitIso(h).sender()).isEqualTo((h + 2) % 3);
                assertThat(job.awaitNoniso(h).sender()).isEqualTo((h + 1) % 3);
            }
        }
    }

    @Test
    @SpecAssertion("I-121")
    void openNetFailsWhenAHostNeverComes() {
        try (IsotachJob job = IsotachJob.builder(2).unopened().open()) {
            long start = System.nanoTime();
            assertThat(job.net(0).openNet(MBM, Duration.ofMillis(300))).isEqualTo(IsotachNet.FAILURE);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TckTransport.patience());
            assertThat(job.net(0).isoSend(1, payload(0, 0, 8), true)).as("not open").isEqualTo(IsotachNet.FAILURE);
        }
    }

    @Test
    @SpecAssertion({"I-126", "I-131"})
    void tryCloseNetSucceedsOnlyAfterEveryHostCalledItThenTheLayerIsClosed() {
        for (Set<Interface> interfaces : List.of(EnumSet.of(Interface.NONISO), MBM)) {
            try (IsotachJob job = IsotachJob.builder(3).interfaces(interfaces).open()) {
                long end = System.nanoTime() + TckTransport.quietPeriod().toNanos() * 2;
                while (System.nanoTime() < end) {
                    assertThat(job.net(0).tryCloseNet()).as("%s: host 0 alone", interfaces)
                            .isEqualTo(IsotachNet.FAILURE);
                    assertThat(job.net(1).tryCloseNet()).as("%s: hosts 0 and 1", interfaces)
                            .isEqualTo(IsotachNet.FAILURE);
                    job.net(2).poll();
                }
                job.closeNetAll();
                for (int h = 0; h < 3; h++) {
                    IsotachNet net = job.net(h);
                    assertThat(net.tryCloseNet()).as("closed").isEqualTo(IsotachNet.FAILURE);
                    assertThat(net.poll()).isEqualTo(IsotachNet.FAILURE);
                    assertThat(net.send((h + 1) % 3, payload(h, 0, 8))).isEqualTo(IsotachNet.FAILURE);
                    assertThat(net.isoSend((h + 1) % 3, payload(h, 0, 8), true)).isEqualTo(IsotachNet.FAILURE);
                    assertThat(net.isoRegisterSignal(1)).isEqualTo(IsotachNet.FAILURE);
                }
            }
        }
    }

    @Test
    @SpecAssertion("I-127")
    void tryCloseNetWaitsForUndeliveredNonisoMessages() {
        for (Set<Interface> interfaces : List.of(EnumSet.of(Interface.NONISO), MBM)) {
            try (IsotachJob job = IsotachJob.builder(2).interfaces(interfaces).open()) {
                send(job, 0, 1, payload(0, 42, 16));
                boolean closed0 = false;
                long deadline = System.nanoTime() + TckTransport.patience().toNanos();
                while (!closed0) {
                    closed0 = job.net(0).tryCloseNet() == IsotachNet.SUCCESS;
                    assertThat(job.net(1).tryCloseNet()).as("%s: a message is waiting at host 1", interfaces)
                            .isEqualTo(IsotachNet.FAILURE);
                    assertThat(System.nanoTime()).as("host 0 never closed").isLessThan(deadline);
                }
                long end = System.nanoTime() + TckTransport.quietPeriod().toNanos();
                while (System.nanoTime() < end) {
                    assertThat(job.net(1).tryCloseNet()).isEqualTo(IsotachNet.FAILURE);
                }
                Delivered d = job.awaitNoniso(1);
                assertThat(seq(d.data())).isEqualTo(42);
                job.awaitCondition("host 1 closes", () -> job.net(1).tryCloseNet() == IsotachNet.SUCCESS);
            }
        }
    }

    /** Hosts with different receive-buffer sizes: each sender learns at open_net what the receiver reserved. */
    @Test
    @SpecAssertion({"I-132", "I-093"})
    void eachHostLearnsThePeersReservationsAtOpenNet() throws Exception {
        IsotachConfig small = IsotachConfig.builder().nonisoSlotsPerPeer(3).isoCreditsPerPeer(4).build();
        IsotachConfig large = IsotachConfig.builder().nonisoSlotsPerPeer(16).isoCreditsPerPeer(16).build();
        try (PerHostJob job = new PerHostJob(List.of(large, small))) {
            job.openAll(MBM);
            IsotachNet big = job.net(0);
            for (int i = 0; i < 10; i++) {
                assertThat(big.send(1, payload(0, i, 8))).isEqualTo(IsotachNet.SUCCESS);
            }
            long end = System.nanoTime() + TckTransport.quietPeriod().toNanos();
            while (System.nanoTime() < end) {
                big.poll();
                job.net(1).poll();
            }
            assertThat(counter(big, "noniso.shipped")).as("host 1 reserved 3 slots for host 0: 2 in flight")
                    .isEqualTo(2);
            // Isotach: more messages than host 1 has credits for, all arrive in order
            for (int i = 0; i < 20; i++) {
                long deadline = System.nanoTime() + TckTransport.patience().toNanos();
                while (big.isoSend(1, payload(0, 100 + i, 8), true) != IsotachNet.SUCCESS) {
                    assertThat(System.nanoTime()).isLessThan(deadline);
                    job.net(1).poll();
                }
            }
            IsoMessage m = new IsoMessage();
            for (int i = 0; i < 20; i++) {
                long deadline = System.nanoTime() + TckTransport.patience().toNanos();
                while (job.net(1).isoReceive(m) != IsotachNet.SUCCESS || m.isNotice()) {
                    big.poll();
                    assertThat(System.nanoTime()).as("Isotach message %d of 20 (counters %s)", i,
                            job.net(1).counters()).isLessThan(deadline);
                }
                assertThat(seq(m.toByteArray()))
                        .as("Isotach message %d of host 0 (which reserved 16 credits per peer) at"
                        + " host 1 (which reserved 4); host 1 dropped %d frames", i,
                        counter(job.net(1), "engine.drop.frame")).isEqualTo(100 + i);
            }
        }
    }

    /** A configuration file that is missing or wrong is refused with a message naming the file and line. */
    @Test
    @SpecAssertion("I-135")
    void aMissingOrMalformedConfigurationFileIsRefusedCleanly(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("network.cfg");
        assertThatThrownBy(() -> IsotachConfigFile.parse(missing))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(missing.toString());
        Path comma = dir.resolve("comma.cfg");
        Files.writeString(comma, "hosts=2\nbugs,0\ndaffy,1\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> IsotachConfigFile.parse(comma))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(comma + ":2:");
        assertThatThrownBy(() -> IsotachConfigFile.parse(new StringReader("bugs 0\n"), "x.cfg"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("x.cfg:1:");
        assertThatThrownBy(() -> IsotachConfigFile.parse(new StringReader("hosts=2\nbugs 0\nbugs 1\n"), "y.cfg"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("y.cfg:3:");
        // a well-formed file drives open_net: names, distances and tunables take effect
        IsotachConfig good = IsotachConfigFile.parse(new StringReader(
                "# two hosts\nhosts=2\nbugs 0\ndaffy 1\ndistance 0 1 3\nset maxPayload=200\n"), "good.cfg");
        try (IsotachJob job = IsotachJob.builder(2).config(good).interfaces(MBM).open()) {
            assertThat(job.net(1).getNodeNumber("bugs")).isZero();
            assertThat(job.net(0).getNodeNumber("daffy")).isEqualTo(1);
            assertThat(job.net(0).getMaxPayload()).isEqualTo(200);
            isoSend(job, 0, 1, payload(0, 1, 200), true);
            assertThat(job.awaitIso(1).data()).hasSize(200);
        }
    }

    /**
     * The local host is not in the configuration (a file naming two hosts, a job of three): the third rank must not
     * come up as a host the configuration never named. Creating its layer may refuse the configuration, or its
     * open_net fail; what it must not do is open as if it had been configured.
     */
    @Test
    @SpecAssertion("I-135")
    void openNetFailsCleanlyWhenTheLocalHostIsNotConfigured() throws Exception {
        IsotachConfig two = IsotachConfigFile.parse(new StringReader("hosts=2\nbugs 0\ndaffy 1\n"), "two.cfg");
        try (PerHostJob job = new PerHostJob(3)) {
            List<String> refusals = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                try {
                    job.add(IsotachNet.create(job.endpoint(r), two));
                } catch (IllegalArgumentException e) {
                    refusals.add("rank " + r + ": " + e.getMessage());
                }
            }
            if (refusals.isEmpty()) {
                List<Integer> rcs = job.tryOpenAll(MBM, Duration.ofSeconds(2));
                assertThat(rcs.get(2)).as("open_net on rank 2, which two.cfg does not list")
                        .isEqualTo(IsotachNet.FAILURE);
            } else {
                assertThat(refusals).allSatisfy(m -> assertThat(m).isNotBlank());
            }
        }
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A job whose hosts may have different configurations (or no layer at all), on the transport under test. */
    static final class PerHostJob implements AutoCloseable {
        private final List<Transport> endpoints;
        private final List<IsotachNet> nets = new ArrayList<>();

        PerHostJob(int ranks) throws TransportException {
            this.endpoints = LocalJob.openAll(Transports.require(TckTransport.name()), Job.local(ranks),
                    IdleMode.BACKOFF, Map.of());
        }

        PerHostJob(List<IsotachConfig> configs) throws TransportException {
            this(configs.size());
            for (int r = 0; r < configs.size(); r++) {
                nets.add(IsotachNet.create(endpoints.get(r), configs.get(r)));
            }
        }

        Transport endpoint(int r) {
            return endpoints.get(r);
        }

        IsotachNet net(int r) {
            return nets.get(r);
        }

        void add(IsotachNet net) {
            nets.add(net);
        }

        /** open_net on every layer in parallel; the return codes by layer. */
        List<Integer> tryOpenAll(Set<Interface> interfaces, Duration timeout) {
            ExecutorService pool = Executors.newCachedThreadPool();
            try {
                List<Future<Integer>> fs = new ArrayList<>();
                for (IsotachNet net : nets) {
                    fs.add(pool.submit(() -> net.openNet(interfaces, timeout)));
                }
                List<Integer> rcs = new ArrayList<>();
                for (Future<Integer> f : fs) {
                    rcs.add(get(f));
                }
                return rcs;
            } finally {
                pool.shutdownNow();
            }
        }

        void openAll(Set<Interface> interfaces) {
            assertThat(tryOpenAll(interfaces, TckTransport.patience())).allSatisfy(
                    rc -> assertThat(rc).isEqualTo(IsotachNet.SUCCESS));
        }

        @Override
        public void close() {
            nets.forEach(IsotachNet::close);
            endpoints.forEach(Transport::close);
        }
    }
}
