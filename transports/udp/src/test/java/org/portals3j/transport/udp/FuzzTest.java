package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.transport.Job;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.Transport;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * 100,000+ random and mutated datagrams from a stranger's socket hit rank 1 while rank 0 Puts 16 MiB to it
 * through Portals: the transfer completes intact and the drop counters account for every fuzz datagram.
 */
class FuzzTest {
    private static final int FUZZ = 100_000;
    private static final int TOTAL = 16 << 20;
    private static final int CHUNK = 256 << 10;

    @Test
    void hostileDatagramsAreAllCountedAndAPortalsTransferCompletesIntact() throws Exception {
        Job job = Job.local(2);
        try (UdpJobs jobs = new UdpJobs(); Arena arena = Arena.ofShared();
             DatagramChannel fuzzer = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            List<Transport> t = jobs.open(job, Map.of());
            Portals p0 = Portals.create(job, t.get(0));
            Portals p1 = Portals.create(job, t.get(1));
            p0.init();
            p1.init();
            NiHandle ni0 = p0.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle ni1 = p1.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            MemorySegment source = Recorder.payload(TOTAL, 77);
            MemorySegment sourceNative = arena.allocate(TOTAL);
            sourceNative.copyFrom(source);
            MemorySegment target = arena.allocate(TOTAL);
            EqHandle eq0 = p0.eqAlloc(ni0, 1024);
            EqHandle eq1 = p1.eqAlloc(ni1, 1024);
            MeHandle me = p1.meAttach(ni1, 4, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            p1.mdAttach(me, MemoryDescriptor.of(target).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                    .withEventQueue(eq1), Unlink.RETAIN, Unlink.RETAIN);
            ProcessId targetId = p1.getId(ni1);

            UdpEndpoint victim = (UdpEndpoint) t.get(1);
            List<ByteBuffer> captured = realDatagrams(job, victim);
            long before = hostileDrops(victim);

            // the transfer runs on its own thread while the fuzzer fires
            Thread transfer = Thread.ofPlatform().start(() -> {
                for (int off = 0; off < TOTAL; off += CHUNK) {
                    MdHandle md = p0.mdBind(ni0,
                            MemoryDescriptor.of(sourceNative.asSlice(off, CHUNK)).withEventQueue(eq0));
                    p0.put(md, AckRequest.ACK_REQ, targetId, 4, 0, 0, off, 0);
                    Event e = new Event();
                    do {
                        assertThat(p0.eqWait(eq0, e)).isEqualTo(ReturnCode.OK);
                    } while (e.type() != EventKind.ACK);
                    p0.mdUnlink(md);
                }
            });
            SplittableRandom random = new SplittableRandom(2024);
            ByteBuffer out = ByteBuffer.allocateDirect(70_000).order(ByteOrder.LITTLE_ENDIAN);
            InetSocketAddress aim = victim.localAddress();
            for (int i = 0; i < FUZZ; i++) {
                int length = mutate(random, captured.get(random.nextInt(captured.size())), out);
                out.limit(length).position(0);
                fuzzer.send(out, aim);
                if (i % 200 == 199) {
                    // pace the fuzzer to the receiver, so the kernel never drops one (the count must be exact)
                    long expected = before + i + 1;
                    Recorder.await("fuzz accounted", 10_000, () -> hostileDrops(victim) >= expected);
                }
            }
            Recorder.await("fuzz accounted", 10_000, () -> hostileDrops(victim) >= before + FUZZ);
            transfer.join(Duration.ofSeconds(60));
            assertThat(transfer.isAlive()).isFalse();
            Thread.sleep(50);
            assertThat(hostileDrops(victim) - before).isEqualTo(FUZZ);
            assertThat(target.mismatch(sourceNative)).isEqualTo(-1L);
            int putEnds = 0;
            Event e = new Event();
            while (p1.eqGet(eq1, e) == ReturnCode.OK) {
                if (e.type() == EventKind.PUT_END) {
                    putEnds++;
                }
            }
            assertThat(putEnds).isEqualTo(TOTAL / CHUNK);
            p0.fini();
            p1.fini();
        }
    }

    /** Every drop counter but duplicates (the transfer's own retransmissions may count there). */
    private static long hostileDrops(Transport t) {
        long sum = 0;
        for (Map.Entry<String, Long> c : t.counters().entrySet()) {
            if (c.getKey().startsWith("drop.") && !c.getKey().equals("drop.duplicate")) {
                sum += c.getValue();
            }
        }
        return sum;
    }

    /** Datagrams exactly as rank 0 would send them to rank 1 (the same key, job tag and incarnations). */
    private static List<ByteBuffer> realDatagrams(Job job, UdpEndpoint victim) throws Exception {
        LocalRendezvous r = LocalRendezvous.of(job);
        long inc0 = Long.parseUnsignedLong(r.lookup(0, UdpEndpoint.KEY_INCARNATION, Duration.ofSeconds(1)), 16);
        long inc1 = Long.parseUnsignedLong(r.lookup(1, UdpEndpoint.KEY_INCARNATION, Duration.ofSeconds(1)), 16);
        int tag = jobTag(job.id());
        DatagramCodec codec = new DatagramCodec(new AutoMac(job.key().bytes())); // the default authenticator
        ByteBuffer data = ByteBuffer.allocate(600).order(ByteOrder.LITTLE_ENDIAN);
        DatagramHeader.write(data, DatagramType.DATA, DatagramHeader.FLAG_FIRST, tag, 0, 1, 256, inc0, inc1, 5, 3, 0, 0,
                0, 100_000, 0, 88, 88 + 400);
        codec.seal(data, 600 - 12);
        data.limit(600 - 12);
        ByteBuffer ack = ByteBuffer.allocate(DatagramHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        DatagramHeader.write(ack, DatagramType.ACK, 0, tag, 0, 1, 256, inc0, inc1, 6, 0, 0, 0, 0, 0, 0, 0, 0);
        codec.seal(ack, DatagramHeader.LENGTH);
        ByteBuffer bye = ByteBuffer.allocate(DatagramHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        DatagramHeader.write(bye, DatagramType.BYE, 0, tag, 0, 1, 256, inc0, inc1, 7, 0, 0, 0, 0, 0, 0, 0, 0);
        codec.seal(bye, DatagramHeader.LENGTH);
        assertThat(codec.check(data, data.limit())).isEqualTo(DatagramCodec.Verdict.OK);
        return List.of(data, ack, bye);
    }

    private static int jobTag(String id) throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
        return (d[0] & 0xff) | (d[1] & 0xff) << 8 | (d[2] & 0xff) << 16 | (d[3] & 0xff) << 24;
    }

    /** One hostile datagram in {@code out}: random bytes, or a real datagram with something changed. */
    private static int mutate(SplittableRandom random, ByteBuffer real, ByteBuffer out) {
        int realLength = real.limit();
        out.clear();
        for (int i = 0; i < realLength; i++) {
            out.put(i, real.get(i));
        }
        int kind = random.nextInt(7);
        switch (kind) {
            case 0 -> { // random bytes of random length (0 included)
                int n = random.nextInt(2_000);
                for (int i = 0; i < n; i++) {
                    out.put(i, (byte) random.nextInt());
                }
                return n;
            }
            case 1 -> { // flips of 1..8 bits
                int flips = 1 + random.nextInt(8);
                for (int f = 0; f < flips; f++) {
                    int bit = random.nextInt(realLength * 8);
                    out.put(bit >>> 3, (byte) (out.get(bit >>> 3) ^ (1 << (bit & 7))));
                }
                // an even number of flips of one bit would restore it: make sure something changed
                out.put(random.nextInt(realLength), (byte) ~real.get(0));
                ensureChanged(real, out, realLength);
                return realLength;
            }
            case 2 -> { // truncated
                return random.nextInt(realLength);
            }
            case 3 -> { // extended
                int extra = 1 + random.nextInt(500);
                for (int i = 0; i < extra; i++) {
                    out.put(realLength + i, (byte) random.nextInt());
                }
                return realLength + extra;
            }
            case 4 -> { // a field changed, the CRC fixed up: only the MAC can catch it
                int[] fields = {DatagramHeader.SOURCE_OFFSET, DatagramHeader.SEQ_OFFSET, DatagramHeader.CUM_ACK_OFFSET,
                    DatagramHeader.MESSAGE_LENGTH_OFFSET, DatagramHeader.FRAGMENT_OFFSET_OFFSET,
                    DatagramHeader.WINDOW_OFFSET};
                int at = fields[random.nextInt(fields.length)];
                out.putInt(at, out.getInt(at) ^ (1 + random.nextInt(Integer.MAX_VALUE)));
                fixCrc(out, realLength);
                return realLength;
            }
            case 5 -> { // the right magic and version, garbage after
                int n = DatagramHeader.LENGTH + random.nextInt(1_000);
                for (int i = 5; i < n; i++) {
                    out.put(i, (byte) random.nextInt());
                }
                out.putInt(0, DatagramHeader.MAGIC);
                out.put(4, (byte) DatagramHeader.VERSION);
                if (random.nextBoolean()) {
                    fixCrc(out, n);
                }
                return n;
            }
            default -> { // a wrong version
                out.put(DatagramHeader.VERSION_OFFSET, (byte) (DatagramHeader.VERSION + 1 + random.nextInt(250)));
                return realLength;
            }
        }
    }

    private static void ensureChanged(ByteBuffer real, ByteBuffer out, int length) {
        for (int i = 0; i < length; i++) {
            if (real.get(i) != out.get(i)) {
                return;
            }
        }
        out.put(length - 1, (byte) (out.get(length - 1) ^ 1));
    }

    private static void fixCrc(ByteBuffer b, int length) {
        CRC32C crc = new CRC32C();
        for (int i = 0; i < DatagramHeader.CRC_OFFSET; i++) {
            crc.update(b.get(i));
        }
        for (int i = DatagramHeader.LENGTH; i < length; i++) {
            crc.update(b.get(i));
        }
        b.putInt(DatagramHeader.CRC_OFFSET, (int) crc.getValue());
    }
}
