package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.TransportException;

/**
 * The rendezvous against strangers, as the adversarial test of issue 17 attacked it: what a refusal says, a
 * recorded handshake, an impostor server, and connections that never finish the handshake. Only the public
 * entry points and raw sockets: an attacker has nothing else.
 */
class RendezvousAttackTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String JOB = "job-secret-42";
    private static final int SIZE = 5;

    private final JobKey key = JobKey.random();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final RendezvousServer server;

    RendezvousAttackTest() throws TransportException {
        server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), JOB, SIZE, key, log::add);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aStrangerWhoHarvestsWhatRefusalsSayIsNeverAdmitted() throws Exception {
        // The three connections of the report: each refusal of protocol version 1 disclosed one more expected
        // value (the job id, the size, the key's fingerprint), and the fourth HELLO was welcomed.
        List<String> said = new ArrayList<>();
        String job = "guess";
        String size = "1";
        String fingerprint = "00";
        for (int attempt = 0; attempt < 3; attempt++) {
            String reply = exchange("HELLO 1 =" + job + " 0 " + size + " =" + fingerprint + "\n");
            said.add(reply);
            job = found(reply, "serves job '([^']*)'", job);
            size = found(reply, "serves a job of (\\d+)", size);
            fingerprint = found(reply, "differs from the job's \\(fp ([0-9a-f]+)\\)", fingerprint);
        }
        said.add(exchange("HELLO 1 =" + job + " 0 " + size + " =" + fingerprint + "\n"));
        // The current version, with whatever was learnt and a made-up proof.
        said.add(exchange("HELLO 2 =" + job + " 0 " + size + " " + randomHex(32) + "\nPROOF " + randomHex(32) + "\n"));

        assertThat(said).allSatisfy(reply -> assertThat(reply).doesNotContain(JOB).doesNotContain(key.fingerprint())
                .doesNotContainPattern("\\b" + SIZE + "\\b"));
        assertThat(said).allSatisfy(reply -> assertThat(reply.lines()).noneMatch(l -> l.startsWith("WELCOME")));
        assertThat(server.connectedRanks()).isZero();
    }

    @Test
    void aRecordedHandshakeReplayedLaterIsRefused() throws Exception {
        byte[] handshake;
        try (RecordingProxy proxy = new RecordingProxy(server.address())) {
            try (TcpRendezvous rank1 = TcpRendezvous.connect(proxy.address(), JOB, 1, SIZE, key, TIMEOUT, null)) {
                rank1.publish(1, "uid", "1000");
            }
            assertThat(server.awaitRanksGone(-1, TIMEOUT)).isTrue();
            handshake = proxy.firstLines(2); // version 1: HELLO and the PUT; version 2: HELLO and PROOF
        }
        String replayed = exchange(new String(handshake, StandardCharsets.UTF_8));
        assertThat(replayed.lines()).as("what the server answered the replay").noneMatch(l -> l.startsWith("WELCOME"));
        assertThat(server.connectedRanks()).isZero();
    }

    @Test
    void refusalsNeverContainTheValuesTheRendezvousExpects() throws Exception {
        List<String> messages = new ArrayList<>();
        messages.add(refusal(() -> TcpRendezvous.connect(server.address(), JOB, 1, SIZE, JobKey.random(), TIMEOUT,
                null)));
        messages.add(refusal(() -> TcpRendezvous.connect(server.address(), "another-job", 1, SIZE, key, TIMEOUT,
                null)));
        messages.add(refusal(() -> TcpRendezvous.connect(server.address(), JOB, 1, 4, key, TIMEOUT, null)));
        messages.add(refusal(() -> TcpRendezvous.connect(server.address(), JOB, 1, 7, JobKey.random(), TIMEOUT,
                null)));
        for (String m : messages) {
            assertThat(m).doesNotContain(JOB).doesNotContain(key.fingerprint()).doesNotContain(key.toHex())
                    .doesNotContainPattern("\\b" + SIZE + "\\b");
        }
        assertThat(server.connectedRanks()).isZero();
    }

    @Test
    void aWrongKeyIsRefusedWithAClearMessageOnBothSides() throws InterruptedException {
        assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), JOB, 1, SIZE, JobKey.random(), TIMEOUT, null))
                .isInstanceOf(TransportException.class)
                .hasMessage("rank 1 cannot join the job at " + server.address() + ": that rendezvous does not hold"
                        + " this rank's job key (the ranks were given different PORTALS_JOB_KEYs, or PORTALS_RENDEZVOUS"
                        + " names another job's rendezvous); give every rank the same PORTALS_JOB_KEY");
        awaitLog(l -> l.startsWith("portals rendezvous: refused rank 1 from /127.0.0.1:")
                && l.endsWith(": its PORTALS_JOB_KEY differs from this job's (it found this rendezvous's proof of the "
                        + "key wrong)"));
    }

    @Test
    void aRankSaysNothingMoreToARendezvousThatCannotProveTheKey() throws Exception {
        // what version 1 took for admission, and a challenge with a made-up proof
        for (String answer : List.of("WELCOME\n", "CHALLENGE " + randomHex(32) + " " + randomHex(32) + "\n")) {
            try (ServerSocket impostor = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                CompletableFuture<List<String>> heard = CompletableFuture.supplyAsync(() -> listen(impostor, answer));
                RendezvousAddress at = new RendezvousAddress("127.0.0.1", impostor.getLocalPort());
                assertThatThrownBy(() -> TcpRendezvous.connect(at, JOB, 1, SIZE, key, TIMEOUT, null))
                        .isInstanceOf(TransportException.class);
                List<String> lines = heard.get(20, TimeUnit.SECONDS);
                assertThat(lines).as("after answering %s", answer.strip()).isNotEmpty();
                assertThat(lines.get(0)).startsWith("HELLO ");
                assertThat(lines.subList(1, lines.size())).as("nothing but a goodbye after the HELLO")
                        .allSatisfy(l -> assertThat(l).isEqualTo("ABORT"));
            }
        }
    }

    @Test
    void connectionsThatNeverFinishTheHandshakeAreEvictedAndTheJobStillForms() throws Exception {
        int idle = 70; // more than the rendezvous keeps waiting at once
        List<SocketChannel> strangers = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < idle; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.address().port()));
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_READ);
                strangers.add(c);
            }
            try (TcpRendezvous r0 = TcpRendezvous.connect(server.address(), JOB, 0, SIZE, key, TIMEOUT, null);
                 TcpRendezvous r1 = TcpRendezvous.connect(server.address(), JOB, 1, SIZE, key, TIMEOUT, null)) {
                r1.publish(1, "udp.address", "127.0.0.1:4000");
                assertThat(r0.lookup(1, "udp.address", TIMEOUT)).isEqualTo("127.0.0.1:4000");
            }
            int closed = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            ByteBuffer buf = ByteBuffer.allocate(64);
            while (closed < idle - 64 && System.nanoTime() < deadline) {
                selector.select(500);
                for (SelectionKey k : selector.selectedKeys()) {
                    SocketChannel c = (SocketChannel) k.channel();
                    buf.clear();
                    int n;
                    try {
                        n = c.read(buf);
                    } catch (IOException e) {
                        n = -1;
                    }
                    if (n < 0) {
                        k.cancel();
                        closed++;
                    }
                }
                selector.selectedKeys().clear();
            }
            assertThat(closed).as("connections the rendezvous dropped to stay within its bound")
                    .isGreaterThanOrEqualTo(idle - 64);
        } finally {
            for (SocketChannel c : strangers) {
                c.close();
            }
        }
    }

    // ---- what an attacker has: sockets -------------------------------------------------------------------

    /** Sends {@code text} on a fresh connection and returns what the server says until it closes (or is quiet). */
    private String exchange(String text) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.address().port())) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (SocketTimeoutException | SocketException e) {
                // quiet (it waits for more) or reset: what came is the answer
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }

    /** Waits (up to 10 s) for the server to log a line that {@code wanted} accepts. */
    private void awaitLog(Predicate<String> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.stream().noneMatch(wanted) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(log).anyMatch(wanted);
    }

    private static String found(String text, String regex, String otherwise) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? String.valueOf(m.group(1)) : otherwise;
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private interface Connect {
        TcpRendezvous connect() throws TransportException;
    }

    private static String refusal(Connect connect) {
        try (TcpRendezvous admitted = connect.connect()) {
            throw new AssertionError("admitted: " + admitted);
        } catch (TransportException e) {
            return String.valueOf(e.getMessage());
        }
    }

    /** One connection to an impostor server: answers the first line with {@code answer}, returns every line heard. */
    private static List<String> listen(ServerSocket impostor, String answer) {
        List<String> lines = new ArrayList<>();
        try (Socket s = impostor.accept()) {
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b; (b = in.read()) >= 0; ) {
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                lines.add(line.toString(StandardCharsets.UTF_8));
                line.reset();
                if (lines.size() == 1) {
                    s.getOutputStream().write(answer.getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                }
            }
        } catch (IOException e) {
            // the rank hung up: what it said is in lines
        }
        return lines;
    }

    /** A TCP proxy in front of the rendezvous that records what its one client sends (as a wiretap would). */
    private static final class RecordingProxy implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        RecordingProxy(RendezvousAddress target) throws IOException {
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    Socket client = listener.accept();
                    Socket upstream = new Socket(target.host(), target.port());
                    sockets.add(client);
                    sockets.add(upstream);
                    Thread.ofPlatform().daemon().start(() -> pump(upstream, client, null));
                    pump(client, upstream, fromClient);
                } catch (IOException e) {
                    // closed
                }
            });
        }

        RendezvousAddress address() {
            return new RendezvousAddress("127.0.0.1", listener.getLocalPort());
        }

        /** The first {@code n} lines the client sent, with their newlines. */
        byte[] firstLines(int n) {
            byte[] all;
            synchronized (fromClient) {
                all = fromClient.toByteArray();
            }
            int seen = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] == '\n' && ++seen == n) {
                    return Arrays.copyOf(all, i + 1);
                }
            }
            throw new AssertionError("the client sent fewer than " + n + " lines");
        }

        private static void pump(Socket from, Socket to, @Nullable ByteArrayOutputStream record) {
            byte[] buf = new byte[4096];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                for (int n; (n = in.read(buf)) > 0; ) {
                    if (record != null) {
                        synchronized (record) {
                            record.write(buf, 0, n);
                        }
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                RendezvousServer.closeQuietly(to);
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            sockets.forEach(RendezvousServer::closeQuietly);
        }
    }
}
