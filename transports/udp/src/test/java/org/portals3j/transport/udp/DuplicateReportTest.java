package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.Transport;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * The receiver's half of undo: a data datagram that arrives a second time is reported in the next
 * acknowledgement (the duplicate field), once. Rank 0 is played by a raw socket that holds the job key.
 */
class DuplicateReportTest {
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    @Test
    void aSecondCopyOfADatagramIsReportedInTheNextAcknowledgementOnce() throws Exception {
        Job job = Job.local(2);
        try (DatagramChannel fake = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            long fakeIncarnation = 0x1234_5678_9abc_def0L;
            LocalRendezvous rendezvous = LocalRendezvous.of(job);
            InetSocketAddress local = (InetSocketAddress) fake.getLocalAddress();
            rendezvous.publish(0, UdpEndpoint.KEY_ADDRESS, "127.0.0.1:" + local.getPort());
            rendezvous.publish(0, UdpEndpoint.KEY_FINGERPRINT, job.key().fingerprint());
            rendezvous.publish(0, UdpEndpoint.KEY_INCARNATION, Long.toHexString(fakeIncarnation));
            // the fake rank 0 sends no heartbeats: a timeout no run outlasts keeps it alive for rank 1 however slow
            Transport t1 = jobs.openRank(job, 1, Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
                    UdpOptions.PEER_TIMEOUT_MILLIS, "600000"));
            Recorder b = new Recorder();
            t1.start(b);
            long victimIncarnation = Long.parseUnsignedLong(((UdpEndpoint) t1).incarnationId(), 16);
            InetSocketAddress aim = ((UdpEndpoint) t1).localAddress();
            DatagramCodec codec = new DatagramCodec(new AutoMac(job.key().bytes()));
            int tag = jobTag(job.id());
            for (long seq = 0; seq < 3; seq++) {
                sendData(fake, aim, codec, tag, fakeIncarnation, victimIncarnation, seq, 100 + seq);
            }
            Recorder.await("three messages", 10_000, () -> b.messages.size() == 3);
            sendData(fake, aim, codec, tag, fakeIncarnation, victimIncarnation, 1, 200); // 1 again: a retransmission
            List<Long> reports = reportedDuplicates(fake, 1);
            assertThat(reports).as("sequence number 1 reported once, in the acknowledgement it caused")
                    .containsExactly(1L);
            sendData(fake, aim, codec, tag, fakeIncarnation, victimIncarnation, 0, 201);
            sendData(fake, aim, codec, tag, fakeIncarnation, victimIncarnation, 2, 202);
            assertThat(reportedDuplicates(fake, 2)).as("two in a row: each reported").containsExactly(0L, 2L);
            assertThat(b.messages).hasSize(3);
            assertThat(t1.counters().getOrDefault("drop.duplicate", 0L)).isEqualTo(3);
        }
    }

    private static int jobTag(String jobId) throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(jobId.getBytes(StandardCharsets.UTF_8));
        return (d[0] & 0xff) | (d[1] & 0xff) << 8 | (d[2] & 0xff) << 16 | (d[3] & 0xff) << 24;
    }

    /** A one-fragment message with a 16-byte header and no payload, acknowledging nothing. */
    private static void sendData(DatagramChannel from, InetSocketAddress to, DatagramCodec codec, int tag, long source,
                                 long destination, long seq, long counter) throws Exception {
        ByteBuffer b = ByteBuffer.allocateDirect(DatagramHeader.LENGTH + 16 + DatagramHeader.TRAILER_ROOM)
                .order(ByteOrder.LITTLE_ENDIAN);
        DatagramHeader.write(b, DatagramType.DATA, DatagramHeader.FLAG_FIRST | DatagramHeader.FLAG_LAST, tag, 0, 1, 16,
                source, destination, counter, seq, 0, 0, 0, 0, 0, 16, 16);
        for (int i = 0; i < 16; i++) {
            b.put(DatagramHeader.LENGTH + i, (byte) i);
        }
        int length = DatagramHeader.LENGTH + 16;
        codec.seal(b, length);
        b.limit(length).position(0);
        from.send(b, to);
    }

    /**
     * Reads what the endpoint sends (acknowledgements, heartbeats every 50 ms) until {@code expected} duplicate
     * reports came (10 s at most), then for 300 ms more (six heartbeats, which must not repeat a report), and
     * returns the duplicates reported, in order.
     */
    private static List<Long> reportedDuplicates(DatagramChannel from, int expected) throws Exception {
        List<Long> reports = new ArrayList<>();
        from.configureBlocking(false);
        ByteBuffer b = ByteBuffer.allocateDirect(70_000).order(ByteOrder.LITTLE_ENDIAN);
        long deadline = System.nanoTime() + 10_000_000_000L;
        boolean extended = false;
        while (System.nanoTime() < deadline) {
            if (!extended && reports.size() >= expected) {
                extended = true;
                deadline = System.nanoTime() + 300_000_000L;
            }
            b.clear();
            if (from.receive(b) == null) {
                Thread.sleep(1);
                continue;
            }
            b.flip();
            assertThat(DatagramHeader.type(b)).isIn(DatagramType.ACK, DatagramType.HEARTBEAT);
            long seq = DatagramHeader.duplicateSeq(DatagramHeader.cumAck(b), DatagramHeader.duplicate(b));
            if (seq >= 0) {
                reports.add(seq);
            }
        }
        return reports;
    }
}
