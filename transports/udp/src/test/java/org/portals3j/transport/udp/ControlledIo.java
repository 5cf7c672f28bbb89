package org.portals3j.transport.udp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/**
 * A socket under a test's control: it captures what the endpoint sends, plays dead (a crash: nothing leaves,
 * nothing is read, no BYE), freezes (a stopped process: every thread that touches the socket waits until it
 * thaws) and throws an injected error from {@code receive}.
 */
final class ControlledIo implements DatagramIo {
    /** A datagram the endpoint sent. */
    record Sent(byte[] bytes, InetSocketAddress target) {
        int type() {
            return bytes[DatagramHeader.TYPE_OFFSET] & 0xff;
        }
    }

    private final DatagramIo inner;
    final ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    volatile boolean capture = true;
    private volatile boolean dead;
    private volatile boolean deaf;
    private volatile @Nullable Error receiveError;
    private final Object gate = new Object();
    private boolean frozen;
    private boolean woken;

    ControlledIo(DatagramIo inner) {
        this.inner = inner;
    }

    /** The datagrams sent to {@code target}, oldest first. */
    List<Sent> sentTo(InetSocketAddress target) {
        return sent.stream().filter(s -> s.target().equals(target)).toList();
    }

    /** From now on the endpoint is gone as a crashed process is: nothing it sends leaves, nothing reaches it. */
    void die() {
        dead = true;
        wakeup();
    }

    /** From now on nothing reaches the endpoint (what it sends still leaves). */
    void deafen() {
        deaf = true;
        wakeup();
    }

    /** Every later socket call waits (a stopped process) until {@link #thaw}. */
    void freeze() {
        synchronized (gate) {
            frozen = true;
        }
    }

    /**
     * Lets the waiting calls go on. With {@code loseBacklog}, what arrived meanwhile is lost first (as when a long
     * stop overflows the socket's receive buffer).
     */
    void thaw(boolean loseBacklog) throws IOException {
        synchronized (gate) {
            if (loseBacklog) {
                ByteBuffer scratch = ByteBuffer.allocateDirect(70_000);
                while (inner.receive(scratch)) {
                    scratch.clear();
                }
            }
            frozen = false;
            gate.notifyAll();
        }
    }

    /** The next {@code receive} throws {@code error} (once). */
    void failNextReceive(Error error) {
        receiveError = error;
    }

    private void waitWhileFrozen() {
        synchronized (gate) {
            boolean interrupted = false;
            while (frozen) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean receive(ByteBuffer dst) throws IOException {
        waitWhileFrozen();
        Error e = receiveError;
        if (e != null) {
            receiveError = null;
            throw e;
        }
        if (dead) {
            return false;
        }
        if (deaf) {
            while (inner.receive(dst)) {
                dst.clear(); // lost on the way in
            }
            return false;
        }
        return inner.receive(dst);
    }

    @Override
    public void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException {
        waitWhileFrozen();
        if (capture) {
            byte[] copy = new byte[length];
            src.duplicate().clear().get(0, copy, 0, length); // its limit is the last datagram's until sent
            sent.add(new Sent(copy, target));
        }
        if (!dead) {
            inner.send(src, length, target);
        }
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        waitWhileFrozen();
        if (!dead && !deaf) {
            inner.await(timeoutMillis);
            return;
        }
        synchronized (gate) { // nothing is read from the socket now: waiting on it could return at once, for ever
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
            long left;
            while (!woken && (left = deadline - System.nanoTime()) > 0) {
                try {
                    gate.wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            woken = false;
        }
    }

    @Override
    public void wakeup() {
        synchronized (gate) {
            woken = true;
            gate.notifyAll();
        }
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
