package org.portals3j.transport.udp.internal.endpoint;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/** A socket that is not one: datagrams in from a queue the test fills, out into a list; awaits return at once. */
final class FakeIo implements DatagramIo {
    /** A datagram sent. */
    record Sent(byte[] bytes, InetSocketAddress target) {
        int type() {
            return bytes[DatagramHeader.TYPE_OFFSET] & 0xff;
        }

        ByteBuffer buffer() {
            return DatagramHeader.order(ByteBuffer.wrap(bytes));
        }
    }

    final InetSocketAddress address;
    final ArrayDeque<byte[]> inbound = new ArrayDeque<>();
    final List<Sent> sent = new ArrayList<>();
    /** Every {@link #await} timeout, in order. */
    final List<Long> awaits = new ArrayList<>();
    int wakeups;
    /** Runs inside {@link #await} (a test's stand-in for what happens while the thread sleeps). */
    Runnable duringAwait = () -> { };

    FakeIo(int port) {
        this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** The datagrams sent of {@code type}, oldest first. */
    List<Sent> sentOfType(int type) {
        return sent.stream().filter(s -> s.type() == type).toList();
    }

    @Override
    public boolean receive(ByteBuffer dst) {
        byte[] d = inbound.pollFirst();
        if (d == null) {
            return false;
        }
        dst.clear();
        dst.put(d);
        dst.flip();
        return true;
    }

    @Override
    public void send(ByteBuffer src, int length, InetSocketAddress target) {
        byte[] copy = new byte[length];
        src.duplicate().clear().get(0, copy, 0, length);
        sent.add(new Sent(copy, target));
    }

    @Override
    public void await(long timeoutMillis) {
        awaits.add(timeoutMillis);
        duringAwait.run();
    }

    @Override
    public void wakeup() {
        wakeups++;
    }

    @Override
    public InetSocketAddress localAddress() {
        return address;
    }

    @Override
    public int receiveBufferBytes() {
        return 4 << 20;
    }

    @Override
    public void close() {
    }
}
