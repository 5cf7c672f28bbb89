package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The layer on the udp transport: eager and rendezvous Amsend, Put, Get and Gfence between two tasks. */
class UdpTest {

    @Test
    void amsendPutGetAndGfenceWorkOverUdp() throws Exception {
        try (LapiJob job = LapiJob.start("udp", 2, LapiConfig.DEFAULT.withCredits(8))) {
            LapiContext a = job.task(0);
            LapiContext b = job.task(1);
            long big = 64 * 1024;
            MemorySegment dst = job.allocate(big);
            b.addrSet((ctx, uhdr, info) -> dst, 1);
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, job.pattern(100, 1), 100, 0, null, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(dst.asSlice(0, 100).mismatch(job.pattern(100, 1))).isEqualTo(-1);
            a.amsend(1, 1, null, 0, job.pattern(big, 2), big, 0, null, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(dst.mismatch(job.pattern(big, 2))).isEqualTo(-1);

            MemorySegment region = job.allocate(big);
            long[] addr = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? b.expose(region) : 0, addr));
            a.put(1, big, addr[1], job.pattern(big, 3), 0, null, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(region.mismatch(job.pattern(big, 3))).isEqualTo(-1);
            MemorySegment back = job.allocate(big);
            LapiCounter org = a.newCounter();
            a.get(1, big, addr[1], back, 0, org);
            a.waitcntr(org, 1);
            assertThat(back.mismatch(job.pattern(big, 3))).isEqualTo(-1);
            for (int i = 0; i < 50; i++) {
                a.amsend(1, 1, null, 0, job.pattern(8, 4), 8, 0, null, null);
            }
            job.onAll(r -> job.task(r).gfence());
            assertThat(job.asyncErrors).isEmpty();
        }
    }
}
