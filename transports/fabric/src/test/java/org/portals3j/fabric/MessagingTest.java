package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two RDM endpoints in one JVM: tagged messages with tag matching and order, truncation, remote CQ data, RMA
 * write then send, RMA read, and MR key uniqueness, on each provider that works here.
 */
class MessagingTest {
    private static final long IGNORE_SENDER = 0xFFFFL;

    private static Peer[] pair(String provider) {
        FabricInfo info = Peer.assumeProvider(provider);
        Peer a = new Peer(info, 1);
        Peer b = new Peer(info, 2);
        return new Peer[] {a, b};
    }

    /** Inserts each peer's name into the other's vector: returns {a's address of b, b's address of a}. */
    private static long[] connect(Peer a, Peer b) {
        return new long[] {a.av.insert(b.ep.name()), b.av.insert(a.ep.name())};
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm", "udp;ofi_rxd"})
    void tagMatchingWithIgnoreBitsAndOrder(String provider) {
        Peer[] p = pair(provider);
        try (Peer a = p[0]; Peer b = p[1]) {
            long[] addr = connect(a, b);
            // b posts buffers of class 0x10000 then 0x20000 then 0x10000; the low 16 bits (sender) are ignored
            long[] classes = {0x10000, 0x20000, 0x10000};
            for (int i = 0; i < classes.length; i++) {
                MemorySegment buf = b.memory.asSlice(i * 256L, 256);
                long cls = classes[i];
                long ctx = 100 + i;
                Peer.post("receive", () -> b.ep.postTaggedReceive(buf, b.region, AddressVector.ANY, cls,
                        IGNORE_SENDER, ctx), a, b);
            }
            // a sends class 0x20000 first, then two of class 0x10000, sender id 7 in the ignored bits
            long[] sent = {0x20007, 0x10007, 0x10007};
            for (int i = 0; i < sent.length; i++) {
                MemorySegment msg = a.memory.asSlice(i * 256L, 32);
                msg.fill((byte) (i + 1));
                long tag = sent[i];
                long ctx = 200 + i;
                Peer.post("send", () -> a.ep.postTaggedSend(msg, a.region, addr[0], tag, ctx), a, b);
            }
            Peer.await("three receives", () -> b.completed(100) && b.completed(101) && b.completed(102), a, b);
            Peer.await("three sends", () -> a.completed(200) && a.completed(201) && a.completed(202), a, b);
            // class 0x20000 landed in buffer 1; the class 0x10000 messages in buffers 0 and 2, in send order
            assertThat(b.completion(101).tag()).isEqualTo(0x20007);
            assertThat(b.memory.get(JAVA_BYTE, 256)).isEqualTo((byte) 1);
            assertThat(b.memory.get(JAVA_BYTE, 0)).isEqualTo((byte) 2);
            assertThat(b.memory.get(JAVA_BYTE, 512)).isEqualTo((byte) 3);
            assertThat(b.completion(100).length()).isEqualTo(32);
            assertThat(b.completion(100).flags() & (Caps.RECV | Caps.TAGGED)).isEqualTo(Caps.RECV | Caps.TAGGED);
            assertThat(b.failed).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm"})
    void truncationIsAnErrorCompletion(String provider) {
        Peer[] p = pair(provider);
        try (Peer a = p[0]; Peer b = p[1]) {
            sendTooLong(a, b);
            assertThat(b.failed).hasSize(1);
            Peer.Failed f = b.failed.get(0);
            assertThat(f.errno()).isEqualTo(265);
            assertThat(f.errnoName()).isEqualTo("FI_ETRUNC");
            assertThat(f.overflow()).as("olen: 56 bytes did not fit, or 0 where the provider leaves it")
                    .isIn(0L, 56L);
            assertThat(f.exception().errnoName()).isEqualTo("FI_ETRUNC");
            assertThat(f.exception()).hasMessageContaining("FI_ETRUNC").hasMessageContaining("context 1");
        }
    }

    /** udp;ofi_rxd 1.17 truncates silently: the receive succeeds with the buffer's length (a provider trap). */
    @ParameterizedTest
    @ValueSource(strings = {"udp;ofi_rxd"})
    void rxdTruncatesSilently(String provider) {
        Peer[] p = pair(provider);
        try (Peer a = p[0]; Peer b = p[1]) {
            sendTooLong(a, b);
            assertThat(b.failed).isEmpty();
            assertThat(b.completion(1).length()).isEqualTo(8);
        }
    }

    /** b posts 8 bytes (context 1), a sends 64 (context 2); waits for both. */
    private static void sendTooLong(Peer a, Peer b) {
        long[] addr = connect(a, b);
        MemorySegment small = b.memory.asSlice(0, 8);
        Peer.post("receive", () -> b.ep.postTaggedReceive(small, b.region, AddressVector.ANY, 5, 0, 1), a, b);
        MemorySegment big = a.memory.asSlice(0, 64);
        Peer.post("send", () -> a.ep.postTaggedSend(big, a.region, addr[0], 5, 2), a, b);
        Peer.await("the truncated receive", () -> b.completed(1), a, b);
        Peer.await("the send", () -> a.completed(2), a, b);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm", "udp;ofi_rxd"})
    void remoteCompletionData(String provider) {
        Peer[] p = pair(provider);
        try (Peer a = p[0]; Peer b = p[1]) {
            long[] addr = connect(a, b);
            Peer.post("receive", () -> b.ep.postTaggedReceive(b.memory.asSlice(0, 64), b.region,
                    AddressVector.ANY, 9, 0, 1), a, b);
            Peer.post("send", () -> a.ep.postTaggedSend(a.memory.asSlice(0, 16), a.region, addr[0], 9,
                    0x1234_5678_9abcL, 2), a, b);
            Peer.await("the receive", () -> b.completed(1), a, b);
            Peer.Done d = b.completion(1);
            assertThat(d.hasData()).isTrue();
            assertThat(d.data()).isEqualTo(0x1234_5678_9abcL);
            assertThat(d.tag()).isEqualTo(9);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm", "udp;ofi_rxd"})
    void rmaWriteIsVisibleAtTheFollowingSendAndRmaReadReturnsRemoteData(String provider) {
        Peer[] p = pair(provider);
        try (Peer a = p[0]; Peer b = p[1]) {
            long[] addr = connect(a, b);
            int size = 256 * 1024;
            MemorySegment src = a.memory.asSlice(0, size);
            for (int i = 0; i < size / 8; i++) {
                src.setAtIndex(JAVA_LONG, i, i * 31L + 7);
            }
            MemorySegment target = b.memory.asSlice(512 * 1024, size);
            long remote = b.region.remoteAddress(512 * 1024);
            Peer.post("receive", () -> b.ep.postTaggedReceive(b.memory.asSlice(0, 8), b.region, AddressVector.ANY,
                    1, 0, 10), a, b);
            Peer.post("write", () -> a.ep.postWrite(src, a.region, addr[0], remote, b.region.key(), 20), a, b);
            Peer.await("the write", () -> a.completed(20), a, b);
            Peer.post("send", () -> a.ep.postTaggedSend(a.memory.asSlice(size, 8), a.region, addr[0], 1, 21), a, b);
            Peer.await("the notice", () -> b.completed(10), a, b);
            assertThat(a.failed).isEmpty();
            assertThat(target.mismatch(src)).isEqualTo(-1);

            // read back half of b's memory into a fresh area of a
            MemorySegment back = a.memory.asSlice(size + 4096, size / 2);
            Peer.post("read", () -> a.ep.postRead(back, a.region, addr[0], remote, b.region.key(), 30), a, b);
            Peer.await("the read", () -> a.completed(30), a, b);
            assertThat(a.failed).isEmpty();
            assertThat(back.mismatch(src.asSlice(0, size / 2))).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm", "udp;ofi_rxd"})
    void memoryKeysAreUniquePerDomain(String provider) {
        FabricInfo info = Peer.assumeProvider(provider);
        try (Peer a = new Peer(info, 77)) {
            MemorySegment other = a.arena.allocate(4096);
            assertThatThrownBy(() -> a.domain.register(other, Caps.REMOTE_WRITE, 77))
                    .isInstanceOfSatisfying(FabricException.class, e -> assertThat(e.errnoName())
                            .isEqualTo("FI_ENOKEY"))
                    .hasMessageContaining("fi_mr_reg(key 77)");
            AtomicLong key = new AtomicLong();
            try (MemoryRegion r = a.domain.register(other, Caps.REMOTE_WRITE, 78)) {
                key.set(r.key());
            }
            assertThat(key.get()).isEqualTo(78);
            try (Peer b = new Peer(info, 77)) { // the same key in another domain is fine
                assertThat(b.region.key()).isEqualTo(77);
            }
        }
    }
}
