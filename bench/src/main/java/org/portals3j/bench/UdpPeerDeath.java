package org.portals3j.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;
import org.portals3j.transport.udp.internal.io.DatagramIo;

/**
 * How long a udp rank takes to declare a crashed peer dead, without and with an attacker who captured the dead
 * peer's datagrams to it and replays them all every 100 ms (before the anti-replay window: never). Rank 1 crashes
 * as a killed process does: from one instant nothing it sends leaves and nothing reaches it, and it says no BYE.
 * Jobs with and without the attacker alternate, {@code rounds} times; medians are reported.
 *
 * <pre>java -cp benchmarks.jar org.portals3j.bench.UdpPeerDeath [--rounds N] [--timeout-millis T]</pre>
 */
public final class UdpPeerDeath {
    private UdpPeerDeath() {
    }

    /** Median milliseconds from the crash to the peer failure; -1 when it never came within the give-up time. */
    public record Result(long timeoutMillis, double clean, double attacked, long giveUpMillis, int rounds) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 3;
        long timeout = 3_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--timeout-millis" -> timeout = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("usage: UdpPeerDeath [--rounds N] [--timeout-millis T]");
                    System.exit(2);
                }
            }
        }
        print(measure(rounds, timeout), System.out);
    }

    public static Result measure(int rounds, long timeoutMillis) throws Exception {
        List<Long> clean = new ArrayList<>();
        List<Long> attacked = new ArrayList<>();
        long giveUp = 5 * timeoutMillis;
        for (int r = 0; r < rounds; r++) {
            clean.add(once(timeoutMillis, false, giveUp));
            attacked.add(once(timeoutMillis, true, giveUp));
        }
        return new Result(timeoutMillis, median(clean), median(attacked), giveUp, rounds);
    }

    private static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        if (sorted.contains(-1L)) {
            return -1; // never: the give-up time passed in some round
        }
        return sorted.get(sorted.size() / 2);
    }

    /** Milliseconds from rank 1's crash to rank 0's onPeerFailure(1), or -1 after {@code giveUpMillis}. */
    private static long once(long timeoutMillis, boolean attack, long giveUpMillis) throws Exception {
        Job job = Job.local(2);
        Map<String, String> options =
                Map.of(UdpOptions.HEARTBEAT_MILLIS, String.valueOf(Math.max(1, timeoutMillis / 15)),
                UdpOptions.PEER_TIMEOUT_MILLIS, String.valueOf(timeoutMillis));
        UdpOptions.Settings settings = UdpOptions.parse(options);
        UdpEndpoint observer = UdpEndpoint.open(new EndpointConfig(job, 0, IdleMode.BACKOFF, options), settings);
        CapturingIo[] io = new CapturingIo[1];
        UdpEndpoint victim;
        try {
            victim = UdpEndpoint.open(new EndpointConfig(job, 1, IdleMode.BACKOFF, options), settings, inner -> {
                io[0] = new CapturingIo(inner, observer.localAddress());
                return io[0];
            });
        } catch (RuntimeException | TransportException e) {
            observer.close();
            throw e;
        }
        CountDownLatch failed = new CountDownLatch(1);
        AtomicBoolean attacking = new AtomicBoolean(attack);
        Thread attacker = null;
        try {
            observer.start(new Quiet() {
                @Override
                public void onPeerFailure(int peer) {
                    failed.countDown();
                }
            });
            victim.start(new Quiet());
            // traffic both ways, then quiet: data, acknowledgements and heartbeats to capture
            for (int i = 0; i < 20; i++) {
                victim.send(0, MemorySegment.ofArray(new byte[16]), 16, MemorySegment.ofArray(new byte[100]), 0, 100,
                        -1L);
                observer.send(1, MemorySegment.ofArray(new byte[16]), 16, MemorySegment.ofArray(new byte[100]), 0, 100,
                        -1L);
            }
            Thread.sleep(3 * Math.max(1, timeoutMillis / 15) + 50);
            List<byte[]> captured = new ArrayList<>(io[0].sent);
            io[0].dead = true;
            long crashed = System.nanoTime();
            if (attack) {
                InetSocketAddress target = observer.localAddress();
                attacker = Thread.ofPlatform().daemon().start(() -> {
                    try (DatagramChannel out = DatagramChannel.open()) {
                        while (attacking.get()) {
                            for (byte[] d : captured) {
                                out.send(ByteBuffer.wrap(d), target);
                            }
                            Thread.sleep(100);
                        }
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            boolean declared = failed.await(giveUpMillis, TimeUnit.MILLISECONDS);
            return declared ? (System.nanoTime() - crashed) / 1_000_000 : -1;
        } finally {
            attacking.set(false);
            if (attacker != null) {
                attacker.join();
            }
            victim.close();
            observer.close();
        }
    }

    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "udp: time to declare a crashed peer dead (peer timeout %d ms, medians of %d rounds)%n",
                r.timeoutMillis(), r.rounds());
        out.printf(Locale.ROOT, "  no attacker                          %s%n", show(r.clean(), r));
        out.printf(Locale.ROOT, "  attacker replays it every 100 ms      %s%n", show(r.attacked(), r));
        if (r.clean() > 0 && r.attacked() > 0) {
            out.printf(Locale.ROOT, "  attacked / no attacker                %.2f%n", r.attacked() / r.clean());
        }
    }

    private static String show(double millis, Result r) {
        return millis < 0 ? "never (gave up after " + r.giveUpMillis() + " ms)"
                : String.format(Locale.ROOT, "%.0f ms (%.2f x the timeout)", millis, millis / r.timeoutMillis());
    }

    /** A handler that takes messages and ignores them. */
    private static class Quiet implements MessageHandler {
        @Override
        public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        }

        @Override
        public void onDeposited(int source, Deposit deposit) {
        }

        @Override
        public void onSendComplete(long token, boolean delivered) {
        }

        @Override
        public void onPeerFailure(int peer) {
        }
    }

    /** The crashing rank's socket: keeps a copy of what it sends to the observer; once dead, nothing in or out. */
    private static final class CapturingIo implements DatagramIo {
        private final DatagramIo inner;
        private final InetSocketAddress observer;
        final ConcurrentLinkedQueue<byte[]> sent = new ConcurrentLinkedQueue<>();
        volatile boolean dead;

        CapturingIo(DatagramIo inner, InetSocketAddress observer) {
            this.inner = inner;
            this.observer = observer;
        }

        @Override
        public boolean receive(ByteBuffer dst) throws IOException {
            return !dead && inner.receive(dst);
        }

        @Override
        public void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException {
            if (dead) {
                return;
            }
            if (target.equals(observer)) {
                byte[] copy = new byte[length];
                src.duplicate().clear().get(0, copy, 0, length);
                sent.add(copy);
            }
            inner.send(src, length, target);
        }

        @Override
        public void await(long timeoutMillis) throws IOException {
            if (dead) {
                try {
                    Thread.sleep(Math.min(timeoutMillis, 10)); // its socket is never read again
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            inner.await(timeoutMillis);
        }

        @Override
        public void wakeup() {
            inner.wakeup();
        }

        @Override
        public InetSocketAddress localAddress() {
            return inner.localAddress();
        }

        @Override
        public int receiveBufferBytes() {
            return inner.receiveBufferBytes();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
