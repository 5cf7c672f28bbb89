package org.portals3j.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.portals3j.transport.udp.internal.wire.AesCmacMac;
import org.portals3j.transport.udp.internal.wire.AesGcmMac;
import org.portals3j.transport.udp.internal.wire.AesPmacMac;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.Crc32cOnly;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramMac;
import org.portals3j.transport.udp.internal.wire.DatagramType;
import org.portals3j.transport.udp.internal.wire.GmacMac;
import org.portals3j.transport.udp.internal.wire.HmacSha256Mac;

/**
 * What one datagram of the udp transport costs both ends for each {@code udp.mac}: seal (in the buffer the sender
 * builds it in: heap for AES-GCM, direct otherwise), copy into a direct buffer (the kernel's part, the same for all),
 * check. {@code copyOnly} is that copy alone. ns per GB = ns per op / length * 1e9.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DatagramMacBenchmark {
    @Param({"auto", "aes-gcm", "gmac", "aes-pmac", "hmac-sha256", "crc32c"})
    public String mac;

    @Param({"65000"})
    public int length;

    private DatagramCodec sender;
    private DatagramCodec receiver;
    private ByteBuffer tx;
    private ByteBuffer rx;
    private long counter;

    static DatagramMac of(String name, byte[] key) {
        return switch (name) {
            case AutoMac.NAME -> new AutoMac(key);
            case AesGcmMac.NAME -> new AesGcmMac(key);
            case GmacMac.NAME -> new GmacMac(key);
            case AesPmacMac.NAME -> new AesPmacMac(key);
            case AesCmacMac.NAME -> new AesCmacMac(key);
            case HmacSha256Mac.NAME -> new HmacSha256Mac(key);
            case Crc32cOnly.NAME -> new Crc32cOnly();
            default -> throw new IllegalArgumentException("unknown udp.mac " + name);
        };
    }

    @Setup
    public void setUp() {
        byte[] key = new byte[16];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (i * 7 + 1);
        }
        DatagramMac m = of(mac, key);
        sender = new DatagramCodec(m);
        receiver = new DatagramCodec(of(mac, key));
        int capacity = length + DatagramHeader.TRAILER_ROOM;
        tx = (m.sealsFasterOnArrays() && length > AesGcmMac.HEAP_ABOVE ? ByteBuffer.allocate(capacity)
                : ByteBuffer.allocateDirect(capacity)).order(ByteOrder.LITTLE_ENDIAN);
        rx = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = DatagramHeader.LENGTH; i < length; i++) {
            tx.put(i, (byte) (i * 31));
        }
        if (sealAndCheck() != DatagramCodec.Verdict.OK) {
            throw new IllegalStateException(mac + " refused its own datagram");
        }
    }

    @Benchmark
    public DatagramCodec.Verdict sealAndCheck() {
        int body = length - DatagramHeader.LENGTH;
        DatagramHeader.write(tx, DatagramType.DATA, DatagramHeader.FLAG_FIRST, 1, 0, 1, 64, 11L, 22L, counter++,
                0, 0, 0, 0, body, 0, 0, body);
        sender.seal(tx, length);
        rx.put(0, tx, 0, length);
        return receiver.check(rx, length);
    }

    @Benchmark
    public ByteBuffer copyOnly() {
        return rx.put(0, tx, 0, length);
    }
}
