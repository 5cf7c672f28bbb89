package org.portals3j.transport.udp.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native socket on loopback: what it sends arrives, waits end on a datagram or a wakeup, a long datagram is cut
 * to the buffer as {@link ChannelIo} cuts it, binding a taken port says so, and its calls allocate nothing.
 */
class SocketIoTest {
    private static final InetSocketAddress ANY_LOOPBACK_PORT =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private final List<DatagramIo> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(DatagramIo::close);
    }

    private DatagramIo open(String kind) throws IOException {
        DatagramIo io = kind.equals("native") ? SocketIo.bind(ANY_LOOPBACK_PORT) : ChannelIo.bind(ANY_LOOPBACK_PORT);
        opened.add(io);
        return io;
    }

    /** Waits (on the socket, never by sleeping) until a datagram is received into {@code dst}. */
    private static void receiveWaiting(DatagramIo io, ByteBuffer dst) throws IOException {
        while (!io.receive(dst)) {
            io.await(10_000);
        }
    }

    @Test
    void isUsableHereForIpv4ButNotIpv6() {
        assertThat(Objects.toString(SocketIo.unusableFor(ANY_LOOPBACK_PORT), "usable"))
                .as("the build runs tests with native access").isEqualTo("usable");
        assertThat(Objects.toString(SocketIo.unusableFor(new InetSocketAddress("::1", 0)), "usable"))
                .contains("not an IPv4 address");
    }

    @Test
    void bindsLoopbackWithAPortAndAReceiveBuffer() throws IOException {
        DatagramIo io = open("native");
        assertThat(io.localAddress().getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
        assertThat(io.localAddress().getPort()).isPositive();
        assertThat(io.receiveBufferBytes()).isPositive();
    }

    @Test
    void whatOneSendsTheOtherReceives() throws IOException {
        DatagramIo a = open("native");
        DatagramIo b = open("native");
        ByteBuffer src = ByteBuffer.allocateDirect(64);
        src.put(0, "hello".getBytes(StandardCharsets.US_ASCII));
        assertThat(b.receive(ByteBuffer.allocateDirect(64))).as("nothing sent yet").isFalse();
        a.send(src, 5, b.localAddress());
        PooledBuffer dst = new PooledBuffer(64);
        while (!b.receive(dst)) {
            b.await(10_000);
        }
        assertThat(dst.buffer.position()).isZero();
        assertThat(dst.buffer.limit()).isEqualTo(5);
        byte[] got = new byte[5];
        dst.buffer.get(0, got);
        assertThat(new String(got, StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(b.receive(dst)).as("one datagram, received once").isFalse();
    }

    @Test
    void heapBuffersWorkToo() throws IOException {
        DatagramIo a = open("native");
        DatagramIo b = open("native");
        ByteBuffer src = ByteBuffer.allocate(16).putLong(0, 0x1122334455667788L);
        a.send(src, 8, b.localAddress());
        ByteBuffer dst = ByteBuffer.allocate(16);
        receiveWaiting(b, dst);
        assertThat(dst.limit()).isEqualTo(8);
        assertThat(dst.getLong(0)).isEqualTo(0x1122334455667788L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "channel"})
    void aDatagramLongerThanTheBufferIsCutToIt(String kind) throws IOException {
        DatagramIo a = open(kind);
        DatagramIo b = open(kind);
        ByteBuffer src = ByteBuffer.allocateDirect(100);
        for (int i = 0; i < 100; i++) {
            src.put(i, (byte) i);
        }
        a.send(src, 100, b.localAddress());
        a.send(src, 3, b.localAddress());
        ByteBuffer small = ByteBuffer.allocateDirect(10);
        receiveWaiting(b, small);
        assertThat(small.limit()).isEqualTo(10);
        assertThat(small.get(9)).isEqualTo((byte) 9);
        receiveWaiting(b, small);
        assertThat(small.limit()).as("the rest of the long one is gone; the next is whole").isEqualTo(3);
    }

    @Test
    void aWakeupEndsAnAwaitInAnotherThread() throws Exception {
        DatagramIo io = open("native");
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                io.await(Long.MAX_VALUE);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        io.wakeup(); // before or during the await: it returns either way
        waiter.join();
        assertThat(waiter.isAlive()).isFalse();
    }

    @Test
    void aWakeupIsConsumedByTheAwaitItEnds() throws IOException {
        DatagramIo a = open("native");
        DatagramIo b = open("native");
        b.wakeup();
        b.await(Long.MAX_VALUE);
        // the next await waits again, here for a datagram
        a.send(ByteBuffer.allocateDirect(8), 8, b.localAddress());
        b.await(Long.MAX_VALUE);
        assertThat(b.receive(ByteBuffer.allocateDirect(8))).isTrue();
    }

    @Test
    void bindingATakenPortSaysItIsInUse() throws IOException {
        DatagramIo a = open("native");
        assertThatThrownBy(() -> SocketIo.bind(a.localAddress()))
                .isInstanceOf(BindException.class).hasMessageContaining("in use");
    }

    @Test
    void closeReleasesThePortAndLaterCallsFail() throws IOException {
        DatagramIo a = open("native");
        InetSocketAddress where = a.localAddress();
        a.close();
        a.close();
        assertThatThrownBy(() -> a.send(ByteBuffer.allocateDirect(8), 8, where))
                .isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> a.receive(ByteBuffer.allocateDirect(8))).isInstanceOf(ClosedChannelException.class);
        a.wakeup();
        a.await(Long.MAX_VALUE); // returns at once: there is nothing to wait on
        SocketIo again = SocketIo.bind(where);
        opened.add(again);
        assertThat(again.localAddress()).isEqualTo(where);
    }

    @Test
    void aFullReceiverDropsRatherThanFailTheSender() throws IOException {
        DatagramIo a = open("native");
        DatagramIo b = open("native");
        ByteBuffer big = ByteBuffer.allocateDirect(60_000);
        int sends = 4 * (b.receiveBufferBytes() / 60_000 + 1);
        for (int i = 0; i < sends; i++) {
            a.send(big, 60_000, b.localAddress());
        }
        int received = 0;
        ByteBuffer dst = ByteBuffer.allocateDirect(60_000);
        while (b.receive(dst)) {
            received++;
        }
        assertThat(received).isPositive().isLessThan(sends);
    }

    @Test
    void sendAndReceiveAllocateNothingOnceWarm() throws IOException {
        DatagramIo a = open("native");
        DatagramIo b = open("native");
        ByteBuffer src = ByteBuffer.allocateDirect(64);
        ByteBuffer plain = ByteBuffer.allocateDirect(64);
        PooledBuffer pooled = new PooledBuffer(64);
        InetSocketAddress target = b.localAddress();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        pingBoth(a, b, src, plain, pooled, target, 20_000);
        long before = threads.getCurrentThreadAllocatedBytes();
        pingBoth(a, b, src, plain, pooled, target, 10_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 20,000 sends and receives").isZero();
    }

    private static void pingBoth(DatagramIo a, DatagramIo b, ByteBuffer src, ByteBuffer plain, PooledBuffer pooled,
                                 InetSocketAddress target, int rounds) throws IOException {
        for (int i = 0; i < rounds; i++) {
            a.send(src, 8, target);
            while (!b.receive(pooled)) {
                b.await(10_000);
            }
            a.send(src, 16, target);
            while (!b.receive(plain)) {
                b.await(10_000);
            }
        }
    }
}
