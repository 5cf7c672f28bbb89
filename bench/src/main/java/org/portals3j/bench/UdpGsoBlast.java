package org.portals3j.bench;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * The ceiling UDP segmentation offload could give the udp transport's bulk path: a flow-controlled raw blast of
 * 1 MiB units on loopback, one {@code sendmsg} per datagram against GSO super-datagrams (Linux UDP_SEGMENT cmsg) and
 * a receiver with and without UDP_GRO, through FFM; the variants take turns, round after round.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar org.portals3j.bench.UdpGsoBlast
 *     [--rounds N] [--millis M]</pre>
 *
 * <p>Each variant sends for {@code M} ms (after a warm-up) with at most {@value #CREDIT_MIB} MiB unacknowledged; the
 * receiver acknowledges each MiB with 8 bytes, so nothing is lost to a full socket buffer and the rate is what the
 * two ends sustain. Reported per variant: GB/s, and the sending and receiving threads' CPU time per MiB (what the
 * load does not move), each also as a ratio to one {@code sendmsg} per 65000-byte datagram in the same round.
 * Linux x86-64 or aarch64 only (the {@code struct msghdr} offsets below are LP64's).
 */
public final class UdpGsoBlast {
    static final int MIB = 1 << 20;
    static final int CREDIT_MIB = 2;
    static final int SOCKET_BUFFER = 4 << 20;

    private static final int AF_INET = 2;
    private static final int SOCK_DGRAM = 2;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDBUF = 7;
    private static final int SO_RCVBUF = 8;
    private static final int SO_RCVTIMEO = 20;
    private static final int SOL_UDP = 17;
    private static final int UDP_SEGMENT = 103;
    private static final int UDP_GRO = 104;
    private static final int EAGAIN = 11;
    /** Receive timeouts (2 s each) a sender waits for an acknowledgement before it calls a datagram lost. */
    private static final int ACK_TIMEOUTS = 10;
    /** The kernel's UDP_MAX_SEGMENTS before 6.x raised it to 128. */
    private static final int MAX_SEGMENTS = 64;
    /** Most payload one (super-)datagram may carry over IPv4. */
    private static final int MAX_PAYLOAD = 65507;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle SOCKET = bind("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT,
            JAVA_INT));
    private static final MethodHandle BIND = bind("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS,
            JAVA_INT));
    private static final MethodHandle GETSOCKNAME = bind("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT,
            ADDRESS, ADDRESS));
    private static final MethodHandle SETSOCKOPT = bind("setsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SENDMSG = bind("sendmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS,
            JAVA_INT));
    private static final MethodHandle RECVMSG = bind("recvmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS,
            JAVA_INT));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    /** How a variant sends and receives. */
    enum Mode { NIO, PLAIN, GSO, GSO_GRO }

    /** One variant: {@code segment} payload bytes per datagram on the wire. */
    record Variant(Mode mode, int segment) {
        String label() {
            return switch (mode) {
                case NIO -> "DatagramChannel.send, " + segment + " B";
                case PLAIN -> "sendmsg per datagram, " + segment + " B";
                case GSO -> "GSO " + perCall() + " x " + segment + " B, no GRO";
                case GSO_GRO -> "GSO " + perCall() + " x " + segment + " B, UDP_GRO";
            };
        }

        int perCall() {
            return mode == Mode.GSO || mode == Mode.GSO_GRO ? Math.min(MAX_SEGMENTS, MAX_PAYLOAD / segment) : 1;
        }
    }

    /** One measurement: GB/s, CPU nanoseconds per MiB of each end, and {@code recvmsg} calls per MiB. */
    record Sample(double gbps, double senderNanosPerMib, double receiverNanosPerMib, double receivesPerMib) {
    }

    private UdpGsoBlast() {
    }

    public static void main(String[] args) throws Throwable {
        int rounds = 5;
        long millis = 1000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--millis" -> millis = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("usage: UdpGsoBlast [--rounds N] [--millis M]");
                    System.exit(2);
                }
            }
        }
        List<Variant> variants = new ArrayList<>(List.of(new Variant(Mode.PLAIN, 65000),
                new Variant(Mode.NIO, 65000), new Variant(Mode.PLAIN, 8972), new Variant(Mode.GSO, 8972),
                new Variant(Mode.GSO_GRO, 8972), new Variant(Mode.PLAIN, 1472), new Variant(Mode.GSO, 1472),
                new Variant(Mode.GSO_GRO, 1472), new Variant(Mode.GSO_GRO, 32500)));
        try {
            measure(new Variant(Mode.GSO, 1472), 50);
            measure(new Variant(Mode.GSO_GRO, 1472), 50);
            System.out.println("a GSO super-datagram of 2 x 65000 B: " + probeBeyond64k());
        } catch (IOException e) {
            System.out.println("this kernel refuses UDP GSO or GRO, measuring plain sends only: " + e.getMessage());
            variants.removeIf(v -> v.perCall() > 1);
        }
        for (Variant v : variants) {
            measure(v, 200); // warm-up
        }
        List<List<Sample>> samples = new ArrayList<>();
        for (int v = 0; v < variants.size(); v++) {
            samples.add(new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < variants.size(); k++) {
                int v = (k + r) % variants.size(); // a different variant runs first each round
                samples.get(v).add(measure(variants.get(v), millis));
            }
        }
        System.out.printf(Locale.ROOT, "raw UDP blast on loopback, 1 MiB units, %d MiB credit, medians of %d rounds"
                + " of %d ms; ratios to the first line, per round then median%n", CREDIT_MIB, rounds, millis);
        System.out.printf(Locale.ROOT, "%-40s %8s %6s %14s %6s %15s %6s %9s%n", "variant", "GB/s", "ratio",
                "sender us/MiB", "ratio", "receiver us/MiB", "ratio", "recv/MiB");
        List<Sample> base = samples.get(0);
        for (int v = 0; v < variants.size(); v++) {
            List<Sample> s = samples.get(v);
            List<Double> gb = new ArrayList<>();
            List<Double> snd = new ArrayList<>();
            List<Double> rcv = new ArrayList<>();
            List<Double> gbR = new ArrayList<>();
            List<Double> sndR = new ArrayList<>();
            List<Double> rcvR = new ArrayList<>();
            List<Double> calls = new ArrayList<>();
            for (int r = 0; r < s.size(); r++) {
                gb.add(s.get(r).gbps());
                snd.add(s.get(r).senderNanosPerMib() / 1000);
                rcv.add(s.get(r).receiverNanosPerMib() / 1000);
                gbR.add(s.get(r).gbps() / base.get(r).gbps());
                sndR.add(s.get(r).senderNanosPerMib() / base.get(r).senderNanosPerMib());
                rcvR.add(s.get(r).receiverNanosPerMib() / base.get(r).receiverNanosPerMib());
                calls.add(s.get(r).receivesPerMib());
            }
            System.out.printf(Locale.ROOT, "%-40s %8.2f %6.2f %14.0f %6.2f %15.0f %6.2f %9.0f%n",
                    variants.get(v).label(), PingPong.median(gb), PingPong.median(gbR), PingPong.median(snd),
                    PingPong.median(sndR), PingPong.median(rcv), PingPong.median(rcvR), PingPong.median(calls));
        }
    }

    /** Blasts for {@code millis} ms in variant {@code v}. */
    static Sample measure(Variant v, long millis) throws Throwable {
        try (Arena arena = Arena.ofShared()) {
            int receiverFd = socket(arena, v.mode() == Mode.GSO_GRO);
            int senderFd = socket(arena, false);
            Receiver receiver = new Receiver(receiverFd, port(arena, senderFd));
            Thread t = new Thread(receiver, "gso-blast-receiver");
            t.start();
            try {
                return send(arena, v, senderFd, port(arena, receiverFd), millis, receiver);
            } finally {
                receiver.stop = true;
                t.join();
                closeFd(receiverFd);
                closeFd(senderFd);
            }
        }
    }

    private static Sample send(Arena arena, Variant v, int fd, int receiverPort, long millis, Receiver receiver)
            throws Throwable {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemorySegment data = arena.allocate(MAX_PAYLOAD, 64);
        data.fill((byte) 0x5a);
        MemorySegment target = sockaddr(arena, receiverPort);
        MemorySegment iov = arena.allocate(16, 8);
        iov.set(ADDRESS, 0, data);
        MemorySegment control = segmentControl(arena, v.segment());
        boolean gso = v.perCall() > 1;
        MemorySegment msg = msghdr(arena, target, iov, gso ? control : MemorySegment.NULL, gso ? 24 : 0);
        MemorySegment ack = arena.allocate(16, 8);
        MemorySegment ackIov = arena.allocate(16, 8);
        ackIov.set(ADDRESS, 0, ack);
        ackIov.set(JAVA_LONG, 8, ack.byteSize());
        MemorySegment ackMsg = msghdr(arena, MemorySegment.NULL, ackIov, MemorySegment.NULL, 0);
        MemorySegment errno = arena.allocate(CAPTURE);
        DatagramChannel nio = null;
        ByteBuffer nioBuffer = data.asByteBuffer();
        InetSocketAddress nioTarget = new InetSocketAddress(InetAddress.getLoopbackAddress(), receiverPort);
        if (v.mode() == Mode.NIO) {
            nio = DatagramChannel.open(StandardProtocolFamily.INET);
        }
        try {
            int chunk = v.segment() * v.perCall();
            long sent = 0;
            long acked = 0;
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            long end = t0 + millis * 1_000_000L;
            while (sent == 0 || System.nanoTime() < end) {
                while (sent - acked >= CREDIT_MIB) {
                    acked = awaitAck(fd, ackMsg, ack, errno);
                }
                for (int off = 0; off < MIB; off += chunk) {
                    int len = Math.min(chunk, MIB - off);
                    if (nio != null) {
                        nioBuffer.clear().limit(len);
                        nio.send(nioBuffer, nioTarget);
                    } else {
                        iov.set(JAVA_LONG, 8, len);
                        long n = (long) SENDMSG.invokeExact(errno, fd, msg, 0);
                        if (n != len) {
                            throw new IOException(v.label() + ": sendmsg returned " + n + ", errno "
                                    + (int) ERRNO.get(errno, 0L) + (gso ? " (the kernel refuses UDP GSO?)" : ""));
                        }
                    }
                }
                sent++;
            }
            while (acked < sent) {
                acked = awaitAck(fd, ackMsg, ack, errno);
            }
            long nanos = System.nanoTime() - t0;
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            receiver.stop = true;
            MemorySegment wake = msghdr(arena, target, iov, MemorySegment.NULL, 0);
            wake.set(JAVA_LONG, 24, 0); // no iovec: an empty datagram wakes the receiver
            long woken = (long) SENDMSG.invokeExact(errno, fd, wake, 0);
            receiver.done.await();
            return new Sample((double) sent * MIB / nanos, (double) cpu / sent, (double) receiver.cpuNanos / sent,
                    (double) receiver.receives / sent);
        } finally {
            if (nio != null) {
                nio.close();
            }
        }
    }

    /** Waits for the receiver's next acknowledgement; returns the MiB it has received. */
    private static long awaitAck(int fd, MemorySegment ackMsg, MemorySegment ack, MemorySegment errno)
            throws Throwable {
        for (int timeouts = 0; timeouts < ACK_TIMEOUTS; timeouts++) {
            long n = (long) RECVMSG.invokeExact(errno, fd, ackMsg, 0);
            if (n == 8) {
                return ack.get(JAVA_LONG, 0);
            }
            int e = (int) ERRNO.get(errno, 0L);
            if (n >= 0 || e != EAGAIN) {
                throw new IOException("recvmsg of an acknowledgement returned " + n + ", errno " + e);
            }
        }
        throw new IOException("no acknowledgement for " + 2 * ACK_TIMEOUTS + " s: a datagram was lost");
    }

    /** What the kernel says to one GSO send of 2 x 65000 bytes (more than an IPv4 datagram can carry). */
    private static String probeBeyond64k() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            int fd = socket(arena, false);
            int peer = socket(arena, false);
            try {
                MemorySegment data = arena.allocate(130000, 64);
                MemorySegment iov = arena.allocate(16, 8);
                iov.set(ADDRESS, 0, data);
                iov.set(JAVA_LONG, 8, data.byteSize());
                MemorySegment control = segmentControl(arena, 65000);
                MemorySegment msg = msghdr(arena, sockaddr(arena, port(arena, peer)), iov, control, 24);
                MemorySegment errno = arena.allocate(CAPTURE);
                long n = (long) SENDMSG.invokeExact(errno, fd, msg, 0);
                return n < 0 ? "refused, errno " + (int) ERRNO.get(errno, 0L) + " (90 is EMSGSIZE)" : "sent " + n;
            } finally {
                closeFd(fd);
                closeFd(peer);
            }
        }
    }

    /** Counts what arrives and acknowledges each MiB; its CPU time covers the whole blast. */
    private static final class Receiver implements Runnable {
        private final int fd;
        private final int senderPort;
        volatile boolean stop;
        volatile long cpuNanos;
        /** Datagrams (or coalesced super-datagrams) with data received; read after {@link #done}. */
        long receives;
        final CountDownLatch done = new CountDownLatch(1);

        Receiver(int fd, int senderPort) {
            this.fd = fd;
            this.senderPort = senderPort;
        }

        @Override
        public void run() {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpu0 = threads.getCurrentThreadCpuTime();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = arena.allocate(65536, 64);
                MemorySegment iov = arena.allocate(16, 8);
                iov.set(ADDRESS, 0, buffer);
                iov.set(JAVA_LONG, 8, buffer.byteSize());
                MemorySegment control = arena.allocate(64, 8);
                MemorySegment msg = msghdr(arena, MemorySegment.NULL, iov, control, control.byteSize());
                MemorySegment ack = arena.allocate(8, 8);
                MemorySegment ackIov = arena.allocate(16, 8);
                ackIov.set(ADDRESS, 0, ack);
                ackIov.set(JAVA_LONG, 8, 8);
                MemorySegment ackMsg = msghdr(arena, sockaddr(arena, senderPort), ackIov, MemorySegment.NULL, 0);
                MemorySegment errno = arena.allocate(CAPTURE);
                long bytes = 0;
                long acked = 0;
                while (!stop) {
                    msg.set(JAVA_LONG, 40, control.byteSize()); // msg_controllen, which recvmsg overwrites
                    long n = (long) RECVMSG.invokeExact(errno, fd, msg, 0);
                    if (n < 0) {
                        continue; // SO_RCVTIMEO: look at stop again
                    }
                    bytes += n;
                    if (n > 0) {
                        receives++;
                    }
                    if (bytes / MIB > acked) {
                        acked = bytes / MIB;
                        ack.set(JAVA_LONG, 0, acked);
                        long m = (long) SENDMSG.invokeExact(errno, fd, ackMsg, 0);
                        if (m != 8) {
                            throw new IOException("acknowledgement not sent, errno " + (int) ERRNO.get(errno, 0L));
                        }
                    }
                }
            } catch (Throwable e) {
                e.printStackTrace();
            } finally {
                cpuNanos = threads.getCurrentThreadCpuTime() - cpu0;
                done.countDown();
            }
        }
    }

    // ==== libc ===================================================================================

    private static MethodHandle bind(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor,
                Linker.Option.captureCallState("errno"));
    }

    /** A blocking IPv4 UDP socket on loopback with 4 MiB buffers and a 2 s receive timeout, UDP_GRO if asked. */
    private static int socket(Arena arena, boolean gro) throws Throwable {
        MemorySegment errno = arena.allocate(CAPTURE);
        int fd = (int) SOCKET.invokeExact(errno, AF_INET, SOCK_DGRAM, 0);
        check(fd, errno, "socket");
        MemorySegment value = arena.allocate(JAVA_INT);
        value.set(JAVA_INT, 0, SOCKET_BUFFER);
        check((int) SETSOCKOPT.invokeExact(errno, fd, SOL_SOCKET, SO_SNDBUF, value, 4), errno, "SO_SNDBUF");
        check((int) SETSOCKOPT.invokeExact(errno, fd, SOL_SOCKET, SO_RCVBUF, value, 4), errno, "SO_RCVBUF");
        MemorySegment timeout = arena.allocate(16, 8);
        timeout.set(JAVA_LONG, 0, 2); // struct timeval: 2 s
        check((int) SETSOCKOPT.invokeExact(errno, fd, SOL_SOCKET, SO_RCVTIMEO, timeout, 16), errno, "SO_RCVTIMEO");
        if (gro) {
            value.set(JAVA_INT, 0, 1);
            check((int) SETSOCKOPT.invokeExact(errno, fd, SOL_UDP, UDP_GRO, value, 4), errno, "UDP_GRO");
        }
        check((int) BIND.invokeExact(errno, fd, sockaddr(arena, 0), 16), errno, "bind");
        return fd;
    }

    private static int port(Arena arena, int fd) throws Throwable {
        MemorySegment errno = arena.allocate(CAPTURE);
        MemorySegment address = arena.allocate(16, 4);
        MemorySegment length = arena.allocate(JAVA_INT);
        length.set(JAVA_INT, 0, 16);
        check((int) GETSOCKNAME.invokeExact(errno, fd, address, length), errno, "getsockname");
        return Short.toUnsignedInt(address.get(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2));
    }

    private static void closeFd(int fd) throws Throwable {
        int ignored = (int) CLOSE.invokeExact(fd);
    }

    /** {@code struct sockaddr_in} for 127.0.0.1:{@code port}. */
    private static MemorySegment sockaddr(Arena arena, int port) {
        MemorySegment a = arena.allocate(16, 4);
        a.set(JAVA_SHORT, 0, (short) AF_INET);
        a.set(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) port);
        a.set(JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN), 4, 0x7f000001);
        return a;
    }

    /** A control message (24 bytes: CMSG_SPACE of a uint16_t) asking for GSO in segments of {@code size}. */
    private static MemorySegment segmentControl(Arena arena, int size) {
        MemorySegment control = arena.allocate(24, 8);
        control.set(JAVA_LONG, 0, 18); // CMSG_LEN(sizeof(uint16_t))
        control.set(JAVA_INT, 8, SOL_UDP);
        control.set(JAVA_INT, 12, UDP_SEGMENT);
        control.set(JAVA_SHORT, 16, (short) size);
        return control;
    }

    /** {@code struct msghdr} (LP64: 56 bytes) with one iovec. */
    private static MemorySegment msghdr(Arena arena, MemorySegment name, MemorySegment iov, MemorySegment control,
                                        long controlLength) {
        MemorySegment m = arena.allocate(56, 8);
        m.set(ADDRESS, 0, name);
        m.set(JAVA_INT, 8, name.equals(MemorySegment.NULL) ? 0 : 16);
        m.set(ADDRESS, 16, iov);
        m.set(JAVA_LONG, 24, 1);
        m.set(ADDRESS, 32, control);
        m.set(JAVA_LONG, 40, controlLength);
        return m;
    }

    private static void check(int result, MemorySegment errno, String what) throws IOException {
        if (result < 0) {
            throw new IOException(what + " failed, errno " + (int) ERRNO.get(errno, 0L));
        }
    }
}
