package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/**
 * Where the data lands (LAPI_Amsend man page, Role of the header handler): in the handler's buffer, whole, and nowhere
 * else.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiDataDeliveryTest {

    /** Sends {@code len} bytes into the middle of a larger buffer and checks both the inside and the outside. */
    private static void landsExactlyInTheSlice(long len) {
        try (LapiJob job = LapiJob.start(2)) {
            long offset = 13;
            MemorySegment buffer = job.allocate(len + 40);
            buffer.fill((byte) 0x5A);
            Recorder handler = new Recorder().into(buffer.asSlice(offset, len));
            MemorySegment data = job.pattern(len, 3);
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), job.pattern(8, 0), data, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(sameBytes(buffer.asSlice(offset, len), data)).as("the data at the slice").isTrue();
            for (long i : new long[] {0, offset - 1, offset + len, buffer.byteSize() - 1}) {
                assertThat(buffer.get(ValueLayout.JAVA_BYTE, i)).as("byte %d outside", i)
                        .isEqualTo((byte) 0x5A);
            }
            MemorySegment before = buffer.asSlice(0, offset);
            MemorySegment after = buffer.asSlice(offset + len);
            assertThat(before.elements(ValueLayout.JAVA_BYTE)
                    .allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == 0x5A)).isTrue();
            assertThat(after.elements(ValueLayout.JAVA_BYTE)
                    .allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == 0x5A)).isTrue();
        }
    }

    @Test
    @SpecAssertion({"L-029", "L-030"})
    void eagerDataLandsInTheReturnedBufferAndNowhereElse() {
        landsExactlyInTheSlice(1000);
    }

    @Test
    @SpecAssertion({"L-029", "L-030"})
    void rendezvousDataLandsInTheReturnedBufferAndNowhereElse() {
        landsExactlyInTheSlice(3 * 4096 + 5);
    }

    @Test
    @SpecAssertion("L-031")
    void noDataWritesNothingWhateverTheHandlerReturns() {
        try (LapiJob job = LapiJob.start(2)) {
            MemorySegment buffer = job.allocate(16);
            buffer.fill((byte) 7);
            AtomicBoolean giveBuffer = new AtomicBoolean(true);
            Recorder handler = new Recorder().into(len -> giveBuffer.getAndSet(false) ? buffer : null);
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, null, 0, null, cmpl);
            send(job.task(0), 1, job.task(1).address(handler), null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            assertThat(handler.calls()).extracting(Recorder.Call::msgLen).containsExactly(0L, 0L);
            assertThat(buffer.elements(ValueLayout.JAVA_BYTE)
                    .allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == 7)).isTrue();
            assertThat(job.asyncErrors()).isEmpty();
        }
    }

    @Test
    @SpecAssertion("L-058")
    void tenPacketsArriveIntact() {
        try (LapiJob job = LapiJob.start(2)) {
            long len = 10 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            MemorySegment dest = job.allocate(len);
            Recorder handler = new Recorder().into(dest);
            MemorySegment data = job.allocate(len);
            SplittableRandom random = new SplittableRandom(len);
            for (long i = 0; i < len; i++) {
                data.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
            }
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, data, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(dest.mismatch(data)).as("the first differing byte").isEqualTo(-1);
        }
    }

    /**
     * The single-packet bound is uhdr_len + udata_len <= PKT_PAYLOAD_SZ (our choice, open point: the LAPI_Amsend man
     * page names no packet size).
     */
    @Test
    @SpecAssertion("L-059")
    void theSinglePacketPathEndsExactlyAtThePacketPayload() {
        try (LapiJob job = LapiJob.start(2)) {
            int uhdrLen = 16;
            long fits = job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) - uhdrLen;
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), job.pattern(uhdrLen, 0), job.pattern(fits, 1), 0, null,
                    cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(handler.last().onePacket() != null).as("%d + %d bytes: one packet", uhdrLen, fits).isTrue();
            send(job.task(0), 1, job.task(1).address(handler), job.pattern(uhdrLen, 0), job.pattern(fits + 1, 1), 0,
                    null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            assertThat(handler.last().onePacket() == null).as("one byte more: several packets").isTrue();
        }
    }
}
