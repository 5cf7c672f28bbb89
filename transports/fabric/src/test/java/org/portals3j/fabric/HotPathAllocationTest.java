package org.portals3j.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Posting a tagged receive and send and reading both completions allocates nothing: measured with the JVM's count
 * of bytes this thread allocated (a count, not a timing), over many messages after a warm-up.
 */
class HotPathAllocationTest {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm"})
    void messagesAllocateNothing(String provider) {
        FabricInfo info = Peer.assumeProvider(provider);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
                .getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        try (Peer a = new Peer(info, 1); Peer b = new Peer(info, 2);
                Completions ca = new Completions(8); Completions cb = new Completions(8)) {
            long dest = a.av.insert(b.ep.name());
            b.av.insert(a.ep.name());
            MemorySegment out = a.memory.asSlice(0, 64);
            MemorySegment in = b.memory.asSlice(0, 64);
            exchange(a, b, ca, cb, out, in, dest, WARM_UP);
            long before = threads.getCurrentThreadAllocatedBytes();
            exchange(a, b, ca, cb, out, in, dest, MEASURED);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // one object per message would be at least 16 bytes each
            assertThat(allocated).as("bytes allocated for " + MEASURED + " messages").isLessThan(MEASURED * 8L);
        }
    }

    private static void exchange(Peer a, Peer b, Completions ca, Completions cb, MemorySegment out,
            MemorySegment in, long dest, int count) {
        long deadline = System.nanoTime() + Peer.WAIT_NANOS;
        for (int i = 0; i < count; i++) {
            while (!b.ep.postTaggedReceive(in, b.region, AddressVector.ANY, 3, 0, i)) {
                drain(a, b, ca, cb, deadline);
            }
            while (!a.ep.postTaggedSend(out, a.region, dest, 3, i)) {
                drain(a, b, ca, cb, deadline);
            }
            int sent = 0;
            int received = 0;
            while (sent == 0 || received == 0) {
                int n = a.cq.read(ca);
                int m = b.cq.read(cb);
                if (n < 0 || m < 0) {
                    fail("an error completion at message " + i);
                }
                sent += n;
                received += m;
                check(deadline);
            }
        }
    }

    private static void drain(Peer a, Peer b, Completions ca, Completions cb, long deadline) {
        if (a.cq.read(ca) != 0 || b.cq.read(cb) != 0) {
            fail("a completion before the message was posted");
        }
        check(deadline);
    }

    private static void check(long deadline) {
        if (System.nanoTime() - deadline > 0) {
            fail("no completion within " + Peer.WAIT_NANOS / 1_000_000_000L + " s");
        }
    }
}
