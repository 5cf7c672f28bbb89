package org.portals3j.transport.udp.internal.io;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import java.util.SplittableRandom;

/**
 * Wraps a {@link DatagramIo} and damages what it receives, with independent probabilities: loss (the
 * datagram vanishes), duplication (it is delivered twice), reordering (it is held back and delivered
 * after the next one) and corruption (one random bit is flipped). Seeded, so a failing run can be
 * repeated. Used by the tests and by the lossy-throughput benchmark; only the protocol thread calls
 * {@link #receive}.
 */
public final class FaultInjectingIo implements DatagramIo {
    private final DatagramIo inner;
    private final double loss;
    private final double duplicate;
    private final double reorder;
    private final double corrupt;
    private final SplittableRandom random;
    /** A datagram to deliver before reading the socket again (a duplicate, or one held back). */
    private final ByteBuffer pending;
    private boolean hasPending;
    /** Reordering holds this one back until another datagram has been delivered. */
    private final ByteBuffer delayed;
    private boolean hasDelayed;
    private int delayedAge;

    public FaultInjectingIo(DatagramIo inner, int datagramSize, double loss, double duplicate, double reorder,
                            double corrupt, long seed) {
        this.inner = inner;
        this.loss = loss;
        this.duplicate = duplicate;
        this.reorder = reorder;
        this.corrupt = corrupt;
        this.random = new SplittableRandom(seed);
        this.pending = ByteBuffer.allocateDirect(datagramSize + DatagramHeader.TRAILER_ROOM);
        this.delayed = ByteBuffer.allocateDirect(datagramSize + DatagramHeader.TRAILER_ROOM);
    }

    private static void copy(ByteBuffer from, ByteBuffer to) {
        to.clear();
        to.put(0, from, 0, from.limit());
        to.limit(from.limit());
    }

    @Override
    public boolean receive(ByteBuffer dst) throws IOException {
        if (hasPending) {
            hasPending = false;
            copy(pending, dst);
            return true;
        }
        while (true) {
            if (!inner.receive(dst)) {
                if (hasDelayed && ++delayedAge > 2) {
                    // nothing overtook it for a while: let it go rather than hold it forever
                    hasDelayed = false;
                    copy(delayed, dst);
                    return true;
                }
                return false;
            }
            if (random.nextDouble() < loss) {
                continue;
            }
            if (random.nextDouble() < corrupt && dst.limit() > 0) {
                int bit = random.nextInt(dst.limit() * 8);
                dst.put(bit >>> 3, (byte) (dst.get(bit >>> 3) ^ (1 << (bit & 7))));
            }
            if (!hasDelayed && random.nextDouble() < reorder) {
                copy(dst, delayed);
                hasDelayed = true;
                delayedAge = 0;
                continue;
            }
            if (hasDelayed) {
                // deliver this one now and the held-back one right after it
                copy(delayed, pending);
                hasDelayed = false;
                hasPending = true;
            } else if (random.nextDouble() < duplicate) {
                copy(dst, pending);
                hasPending = true;
            }
            return true;
        }
    }

    @Override
    public void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException {
        inner.send(src, length, target);
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        if (hasPending || hasDelayed) {
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
