package org.portals3j.transport.udp.internal.io;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The real socket: a non-blocking {@link DatagramChannel} and a {@link Selector} to wait on it. */
public final class ChannelIo implements DatagramIo {
    /** Socket buffers asked for; the kernel caps them at net.core.rmem_max / wmem_max. */
    static final int SOCKET_BUFFER = 4 << 20;

    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress local;
    private final int receiveBuffer;

    private ChannelIo(DatagramChannel channel, Selector selector, InetSocketAddress local, int receiveBuffer) {
        this.channel = channel;
        this.selector = selector;
        this.local = local;
        this.receiveBuffer = receiveBuffer;
    }

    /**
     * Binds {@code address}.
     *
     * @throws IOException as the JDK reports it (the caller turns it into advice)
     */
    public static ChannelIo bind(InetSocketAddress address) throws IOException {
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
            channel.bind(address);
            channel.configureBlocking(false);
            Selector selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
            SocketAddress bound = channel.getLocalAddress();
            // Linux reports twice what it grants (it counts its own bookkeeping in); half is the data room.
            int granted = channel.getOption(StandardSocketOptions.SO_RCVBUF) / 2;
            return new ChannelIo(channel, selector, (InetSocketAddress) bound, granted);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public boolean receive(ByteBuffer dst) throws IOException {
        dst.clear();
        @Nullable SocketAddress from = channel.receive(dst);
        if (from == null) {
            return false;
        }
        dst.flip();
        return true;
    }

    @Override
    public void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException {
        src.limit(length).position(0);
        channel.send(src, target);
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        selector.select(Math.max(1, timeoutMillis));
        selector.selectedKeys().clear();
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public int receiveBufferBytes() {
        return receiveBuffer;
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException e) {
            // closing: nothing to do about it
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing: nothing to do about it
        }
    }
}
