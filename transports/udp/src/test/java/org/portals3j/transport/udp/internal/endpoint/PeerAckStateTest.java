package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/**
 * The acknowledgement state a sender piggybacks is one publication's: selective bits read with another
 * publication's cumulative ack would acknowledge data the receiver never got, and the sender would never
 * retransmit it.
 */
class PeerAckStateTest {

    @Test
    void aReaderNeverMixesTwoPublications() throws Exception {
        Peer p = new Peer(1, 64, 64, 2048, 2048 - DatagramHeader.LENGTH, 256,
                new DatagramCodec(new AutoMac(new byte[32])), new RttEstimator(1, 2, 1), 16, 1 << 20);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong published = new AtomicLong();
        Thread writer = Thread.ofPlatform().start(() -> {
            long cum = 0;
            while (!stop.get()) {
                cum++;
                p.publishAck(cum, sackOf(cum), ~cum, cum & 0xffff);
                published.set(cum);
            }
        });
        ByteBuffer b = ByteBuffer.allocate(DatagramHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        long reads = 0;
        long changes = 0;
        long last = -1;
        long deadline = System.nanoTime() + 3_000_000_000L;
        try {
            // many publications, each a chance for the writer to move between the reads of one snapshot (without the
            // seqlock, a mixed snapshot showed up within a second here)
            while (changes < 200_000 && System.nanoTime() < deadline) {
                long cum = p.putAck(b);
                assertThat(DatagramHeader.cumAck(b)).isEqualTo(cum);
                if (cum != 0) {
                    assertThat(DatagramHeader.sack(b)).as("sack of read %d", reads).isEqualTo(sackOf(cum));
                    assertThat(DatagramHeader.failed(b)).isEqualTo(~cum);
                    assertThat(DatagramHeader.window(b)).isEqualTo((int) (cum & 0xffff));
                }
                if (cum != last) {
                    changes++;
                    last = cum;
                }
                reads++;
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertThat(published.get()).isPositive();
    }

    private static long sackOf(long cum) {
        return cum * 0x9E3779B97F4A7C15L;
    }
}
