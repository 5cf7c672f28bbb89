package org.portals3j.transport.udp.internal.io;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The seam between the protocol and the socket, so that faults can be injected on the receive side
 * ({@link FaultInjectingIo}) without the protocol knowing.
 */
public interface DatagramIo extends AutoCloseable {

    /**
     * Receives one datagram into {@code dst} (from position 0; on success its limit is the datagram
     * length) without blocking.
     *
     * @return false if none is waiting
     */
    boolean receive(ByteBuffer dst) throws IOException;

    /** As {@link #receive(ByteBuffer)} into {@code dst.buffer}; the receive path's pooled buffers come this way. */
    default boolean receive(PooledBuffer dst) throws IOException {
        return receive(dst.buffer);
    }

    /** Sends {@code [0, length)} of {@code src} to {@code target}; may be called from any thread. */
    void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException;

    /** Blocks until a datagram may be waiting, {@link #wakeup()} is called, or {@code timeoutMillis} pass. */
    void await(long timeoutMillis) throws IOException;

    /** Makes a current or the next {@link #await} return at once. */
    void wakeup();

    InetSocketAddress localAddress();

    /** Bytes the kernel holds for this socket's received datagrams (what SO_RCVBUF was granted). */
    int receiveBufferBytes();

    @Override
    void close();
}
