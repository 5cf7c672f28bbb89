package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.TransportException;

class TcpRendezvousTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final RendezvousAddress ANY_LOOPBACK = new RendezvousAddress("127.0.0.1", 0);

    private final JobKey key = JobKey.random();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final RendezvousServer server;

    TcpRendezvousTest() throws TransportException {
        server = RendezvousServer.start(ANY_LOOPBACK, "job-1", 3, key, log::add);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private TcpRendezvous connect(int rank) throws TransportException {
        return TcpRendezvous.connect(server.address(), "job-1", rank, 3, key, TIMEOUT, null);
    }

    @Test
    void ranksSeeWhatOthersPublishAndLookupWaitsForLatePublishers() throws Exception {
        try (TcpRendezvous r0 = connect(0); TcpRendezvous r1 = connect(1)) {
            CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return r0.lookup(1, "udp.address", TIMEOUT);
                } catch (TransportException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(100);
            assertThat(waiting).isNotDone();
            r1.publish(1, "udp.address", "127.0.0.1:4000 with spaces %and\nnewline");
            assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("127.0.0.1:4000 with spaces %and\nnewline");
            r0.publish(0, "empty", "");
            assertThat(r1.lookup(0, "empty", TIMEOUT)).isEmpty();
            assertThat(server.connectedRanks()).isEqualTo(2);
        }
    }

    @Test
    void theLocalAddressIsTheOneTheRendezvousWasReachedFrom() throws Exception {
        try (TcpRendezvous r0 = connect(0)) {
            assertThat(r0.localAddress()).hasValueSatisfying(a -> assertThat(a.isLoopbackAddress()).isTrue());
        }
        assertThat(new LocalRendezvous().localAddress()).as("in one JVM there is no network address").isEmpty();
    }

    @Test
    void lookupOfAValueNobodyPublishesTimesOutNamingTheRank() throws Exception {
        try (TcpRendezvous r0 = connect(0)) {
            assertThatThrownBy(() -> r0.lookup(2, "uid", Duration.ofMillis(200)))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("rank 2 did not publish 'uid' within 0.2 s");
        }
    }

    @Test
    void republishingADifferentValueIsRefusedAndPublishingForAnotherRankToo() throws Exception {
        try (TcpRendezvous r0 = connect(0)) {
            r0.publish(0, "uid", "1000");
            r0.publish(0, "uid", "1000");
            assertThatThrownBy(() -> r0.publish(0, "uid", "1001"))
                    .hasMessageContaining("published 'uid' twice with different values (1000, then 1001)");
            assertThatThrownBy(() -> r0.publish(1, "uid", "5"))
                    .hasMessageContaining("rank 0 cannot publish for rank 1");
            assertThat(r0.lookup(0, "uid", TIMEOUT)).isEqualTo("1000");
        }
    }

    @Test
    void aRankOfAnotherJobOrSizeOrADuplicateRankIsRefusedInItsOwnTerms() throws Exception {
        String anotherJob = "the rendezvous at " + server.address() + " serves another job: rank 1's job id or number"
                + " of ranks differs from that job's; give every rank the same job id (PORTALS_JOB_ID, or the same"
                + " Slurm/Open MPI job) and the same number of ranks";
        assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), "job-2", 1, 3, key, TIMEOUT, null))
                .hasMessage(anotherJob);
        assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), "job-1", 1, 4, key, TIMEOUT, null))
                .hasMessage(anotherJob);
        assertThat(log).anySatisfy(l -> assertThat(l).contains("[it claims job 'job-2' of 3 ranks; this is job"
                + " 'job-1' of 3]"));
        assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), "job-1", 3, 3, key, TIMEOUT, null))
                .hasMessageContaining("rank 3 is outside the job's 3 ranks");
        try (TcpRendezvous r1 = connect(1)) {
            assertThatThrownBy(() -> connect(1)).hasMessageContaining("rank 1 is already connected");
            assertThat(r1.isConnected()).isTrue();
        }
    }

    @Test
    void aRankOfTheOlderProtocolIsToldToRunTheSameVersion() throws Exception {
        try (RawRendezvousClient old = RawRendezvousClient.connect(server.address())) {
            old.send("HELLO 1 =job-1 1 3 =" + key.fingerprint());
            assertThat(old.readToEnd()).containsExactly("REFUSED =rendezvous%20protocol%20version%201%20is%20not%202:"
                    + "%20run%20every%20rank%20with%20the%20same%20Portals3J%20version");
        }
    }

    @Test
    void garbageOnTheServerSocketDropsThatConnectionOnlyAndTheServerKeepsServing() throws Exception {
        try (TcpRendezvous r0 = connect(0)) {
            r0.publish(0, "uid", "7");
            String nonce = "ab".repeat(RendezvousAdmission.NONCE_LENGTH);
            String[] garbage = {"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "HELLO 2 =job-1 zero 3 " + nonce + "\n",
                "HELLO 2 =job-1 1 3\n", "HELLO 2 =job-1 1 3 =not-hex\n", "\u0000\u0001\u00ff\u00fe\n",
                "x".repeat(RendezvousWire.MAX_HANDSHAKE_LINE + 10) + "\n"};
            for (String g : garbage) {
                try (RawRendezvousClient s = RawRendezvousClient.connect(server.address())) {
                    s.sendBytes(g.getBytes(StandardCharsets.ISO_8859_1));
                    assertThat(s.readToEnd()).as("the server closes on '%s'", g.substring(0, 5)).isEmpty();
                }
            }
            // An admitted client sending a garbage request, or a line without its tag, is dropped too.
            for (String request : new String[] {"1 FROB", "1 GET 0 =uid 100"}) {
                try (RawRendezvousClient s = RawRendezvousClient.connect(server.address())) {
                    assertThat(s.handshake(key, "job-1", 2, 3)).isEqualTo("WELCOME");
                    if (request.contains("FROB")) {
                        s.sendSealed(request);
                    } else {
                        s.send(request); // not sealed
                    }
                    assertThat(s.readToEnd()).isEmpty();
                }
                assertThat(server.awaitRanksGone(0, TIMEOUT)).as("the dropped rank 2 is forgotten").isTrue();
            }
            try (TcpRendezvous r2 = connect(2)) {
                assertThat(r2.lookup(0, "uid", TIMEOUT)).isEqualTo("7");
            }
            assertThat(log).hasSize(garbage.length + 2).allSatisfy(l ->
                    assertThat(l).startsWith("portals rendezvous: dropped the connection from").doesNotContain("\n"));
            assertThat(log).anySatisfy(l -> assertThat(l)
                    .endsWith("(rank 2): an authentication tag that is not 16 bytes of hex"))
                    .anySatisfy(l -> assertThat(l).endsWith(": a line longer than "
                            + RendezvousWire.MAX_HANDSHAKE_LINE + " bytes"));
        }
    }

    @Test
    void aConnectionThatDoesNotFinishTheHandshakeInTimeIsDropped() throws Exception {
        try (RendezvousServer quick = RendezvousServer.start(ANY_LOOPBACK, "job-1", 3, key, log::add, null,
                new RendezvousServer.Limits(Duration.ofMillis(500), 64));
             RawRendezvousClient silent = RawRendezvousClient.connect(quick.address());
             RawRendezvousClient slow = RawRendezvousClient.connect(quick.address())) {
            slow.sendBytes("HELLO 2 =job".getBytes(StandardCharsets.UTF_8)); // and nothing more
            assertThat(silent.readToEnd()).isEmpty();
            assertThat(slow.readToEnd()).isEmpty();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (quick.pendingConnections() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(quick.pendingConnections()).isZero();
            try (TcpRendezvous r0 = TcpRendezvous.connect(quick.address(), "job-1", 0, 3, key, TIMEOUT, null)) {
                assertThat(quick.connectedRanks()).isEqualTo(1);
            }
        }
        assertThat(log).anySatisfy(l -> assertThat(l).endsWith(": no complete handshake within 0.5 s"));
    }

    @Test
    void aPeerCheckDecidesAfterTheKeyProofAndItsRefusalReachesTheRank() throws Exception {
        List<String> checked = new CopyOnWriteArrayList<>();
        RendezvousPeerCheck onlyRankZero = (rank, peer, local) -> {
            checked.add(rank + " " + peer + " " + local);
            return rank == 0 ? Optional.empty() : Optional.of(new RendezvousPeerCheck.Refusal(
                    "rank " + rank + " is not a process this launcher started", "pid 4242 is nobody's"));
        };
        try (RendezvousServer checking = RendezvousServer.start(ANY_LOOPBACK, "job-1", 3, key, log::add, onlyRankZero);
             TcpRendezvous r0 = TcpRendezvous.connect(checking.address(), "job-1", 0, 3, key, TIMEOUT, null)) {
            assertThat(checked).singleElement().asString().isEqualTo("0 " + r0.localSocketAddress() + " /127.0.0.1:"
                    + checking.address().port());
            assertThatThrownBy(() -> TcpRendezvous.connect(checking.address(), "job-1", 1, 3, key, TIMEOUT, null))
                    .hasMessage("rank 1 is not a process this launcher started");
            assertThatThrownBy(() -> TcpRendezvous.connect(checking.address(), "job-1", 2, 3, JobKey.random(), TIMEOUT,
                    null)).hasMessageContaining("does not hold this rank's job key");
            assertThat(checked).as("only ranks that proved the key are checked").hasSize(2);
            assertThat(log).anySatisfy(l -> assertThat(l).endsWith(": rank 1 is not a process this launcher started"
                    + " [pid 4242 is nobody's]"));
            assertThat(checking.connectedRanks()).isEqualTo(1);
        }
    }

    @Test
    void aRankCannotPublishMoreThanItsShare() throws Exception {
        try (TcpRendezvous r0 = connect(0)) {
            for (int i = 0; i < RendezvousServer.MAX_VALUES_PER_RANK; i++) {
                r0.publish(0, "k" + i, "v");
            }
            assertThatThrownBy(() -> r0.publish(0, "one-more", "v"))
                    .hasMessage("rank 0 has published " + RendezvousServer.MAX_VALUES_PER_RANK + " values, the most a"
                            + " rank may");
            r0.publish(0, "k0", "v"); // the same value again is still fine
            assertThat(r0.lookup(0, "k7", TIMEOUT)).isEqualTo("v");
        }
    }

    @Test
    void anUnreachableRendezvousIsReportedAfterTheTimeout() throws Exception {
        int port;
        try (RendezvousServer gone = RendezvousServer.start(ANY_LOOPBACK, "job-1", 3, key, log::add)) {
            port = gone.address().port();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> TcpRendezvous.connect(new RendezvousAddress("127.0.0.1", port), "job-1", 0, 3, key,
                Duration.ofMillis(700), null))
                .isInstanceOf(TransportException.class)
                .hasMessage("cannot reach the rendezvous at 127.0.0.1:" + port + " within 0.7 s: is rank 0 (or portals"
                        + " run) running, and is PORTALS_RENDEZVOUS right?");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
    }

    @Test
    void connectRetriesUntilTheServerComesUp() throws Exception {
        int port;
        try (RendezvousServer probe = RendezvousServer.start(ANY_LOOPBACK, "late", 1, key, log::add)) {
            port = probe.address().port();
        }
        RendezvousAddress at = new RendezvousAddress("127.0.0.1", port);
        CompletableFuture<TcpRendezvous> client = CompletableFuture.supplyAsync(() -> {
            try {
                return TcpRendezvous.connect(at, "late", 0, 1, key, TIMEOUT, null);
            } catch (TransportException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        try (RendezvousServer late = RendezvousServer.start(at, "late", 1, key, log::add);
             TcpRendezvous c = client.get(10, TimeUnit.SECONDS)) {
            c.publish(0, "k", "v");
            assertThat(late.connectedRanks()).isEqualTo(1);
        }
    }

    @Test
    void servingOnAPortInUseSaysSo() {
        assertThatThrownBy(() -> RendezvousServer.start(server.address(), "job-x", 2, key, log::add))
                .isInstanceOf(TransportException.class)
                .hasMessage("cannot serve the rendezvous on " + server.address()
                        + ": the port is in use (another job or program has it); choose another port");
    }

    @Test
    void theClientIsToldWhenTheServerGoesAwayButNotWhenItLeavesItself() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        CountDownLatch notLost = new CountDownLatch(1);
        TcpRendezvous leaving = TcpRendezvous.connect(server.address(), "job-1", 1, 3, key, TIMEOUT,
                notLost::countDown);
        TcpRendezvous staying = TcpRendezvous.connect(server.address(), "job-1", 2, 3, key, TIMEOUT, lost::countDown);
        leaving.close();
        assertThat(server.awaitRanksGone(2, TIMEOUT)).isTrue();
        assertThat(server.connectedRanks()).isEqualTo(1);
        server.close();
        assertThat(lost.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(notLost.getCount()).isEqualTo(1);
        assertThat(staying.isConnected()).isFalse();
        assertThatThrownBy(() -> staying.publish(2, "k", "v")).hasMessageContaining("lost its connection");
    }

    @Test
    void addressesParseWithTheirHostAndPortAndBadOnesSayWhatTheyShouldLookLike() {
        assertThat(RendezvousAddress.parse("node01:7010")).isEqualTo(new RendezvousAddress("node01", 7010));
        assertThat(RendezvousAddress.parse("[::1]:7010").host()).isEqualTo("::1");
        assertThat(RendezvousAddress.parse("[::1]:7010")).hasToString("[::1]:7010");
        for (String bad : List.of("node01", "node01:", ":7010", "node01:x", "node01:70000", "::1:7010")) {
            assertThatThrownBy(() -> RendezvousAddress.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PORTALS_RENDEZVOUS must be host:port");
        }
    }
}
