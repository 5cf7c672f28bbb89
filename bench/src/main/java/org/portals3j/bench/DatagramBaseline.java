package org.portals3j.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.internal.IdleStrategies;

/**
 * The raw-socket baseline for transports that run over UDP: one {@link DatagramChannel} per rank on
 * loopback, no reliability, no checksum, no authentication. What a transport over UDP adds is measured
 * against it.
 *
 * <p>Waiting follows the same {@link IdleMode} as the transport under test: {@code SPIN} polls a
 * non-blocking receive, {@code YIELD} yields between polls, {@code PARK} and {@code BACKOFF} poll for
 * {@value #SPIN_MICROS} &micro;s and then block in {@link Selector#select(long)} &mdash; the way a
 * transport's receive thread must wait on a 2-core machine.
 */
final class DatagramBaseline implements AutoCloseable {
    /** How long PARK/BACKOFF poll before blocking in the selector. */
    static final long SPIN_MICROS = 50;
    /** A blast ends when nothing arrived for this long (datagrams lost to a full socket buffer never come). */
    static final long BLAST_QUIET_MILLIS = 50;

    private final DatagramChannel channel;
    private final Selector selector;
    /** The mode's strategy for an agent, resting ({@link #rest}) where the mode would park. */
    private final IdleStrategy idle;
    /** The current receive has started its {@value #SPIN_MICROS} &micro;s of polling, which end here. */
    private boolean spinning;
    private long spinUntil;
    private final int datagramSize;
    private final ByteBuffer out;
    private final ByteBuffer in;
    private InetSocketAddress peer = new InetSocketAddress(InetAddress.getLoopbackAddress(), 9);

    DatagramBaseline(IdleMode idle, int datagramSize) {
        this.idle = IdleStrategies.forAgent(idle, this::rest);
        this.datagramSize = datagramSize;
        this.out = ByteBuffer.allocateDirect(datagramSize);
        this.in = ByteBuffer.allocateDirect(Math.max(datagramSize, 65536));
        try {
            channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the baseline's datagram channel on loopback", e);
        }
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void peer(InetSocketAddress address) {
        this.peer = address;
    }

    int datagramSize() {
        return datagramSize;
    }

    /** Sends one datagram of {@code size} bytes (at most the datagram size) to the peer. */
    void send(int size) {
        ByteBuffer b = out;
        b.clear().limit(size);
        try {
            while (channel.send(b, peer) == 0) {
                Thread.onSpinWait(); // socket send buffer full: the kernel will drain it
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for one datagram; returns its length. */
    int receive(BooleanSupplier failed) {
        spinning = false;
        try {
            while (true) {
                in.clear();
                if (channel.receive(in) != null) {
                    return in.position();
                }
                if (failed.getAsBoolean()) {
                    throw new IllegalStateException("the other rank failed");
                }
                idle.idle(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the mode would park: poll for {@value #SPIN_MICROS} &micro;s, then block in the selector. */
    private void rest(long strategyPeriodNanos) {
        if (!spinning) {
            spinning = true;
            spinUntil = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(SPIN_MICROS);
        } else if (System.nanoTime() - spinUntil > 0) {
            try {
                selector.select(100);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            selector.selectedKeys().clear();
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * Receives a blast of up to {@code bytes} bytes; returns nanoseconds from the first datagram to the
     * last one received, and stores the bytes received in {@code received[0]}.
     */
    long receiveBlast(long bytes, long[] received, BooleanSupplier failed) {
        long got = receive(failed);
        long first = System.nanoTime();
        long last = first;
        try {
            while (got < bytes) {
                in.clear();
                if (channel.receive(in) != null) {
                    got += in.position();
                    last = System.nanoTime();
                } else if (System.nanoTime() - last > TimeUnit.MILLISECONDS.toNanos(BLAST_QUIET_MILLIS)) {
                    break; // the rest was lost to a full socket buffer
                } else {
                    Thread.onSpinWait();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        received[0] = got;
        return Math.max(1, last - first);
    }

    /** Sends {@code bytes} bytes as back-to-back full datagrams. */
    void sendBlast(long bytes) {
        for (long sent = 0; sent < bytes; sent += datagramSize) {
            send((int) Math.min(datagramSize, bytes - sent));
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
