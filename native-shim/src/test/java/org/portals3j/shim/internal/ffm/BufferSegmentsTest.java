package org.portals3j.shim.internal.ffm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** A C buffer passed again gets the segment made for it before; any other gets one of its own address and length. */
class BufferSegmentsTest {

    @Test
    void theSameBufferGetsTheSameSegmentAgain() {
        BufferSegments segments = new BufferSegments();
        MemorySegment first = segments.of(0x10_0000L, 8);
        assertThat(segments.of(0x10_0000L, 8)).isSameAs(first);
        assertThat(first.address()).isEqualTo(0x10_0000L);
        assertThat(first.byteSize()).isEqualTo(8);
    }

    @Test
    void anotherLengthOrAddressGetsASegmentOfItsOwn() {
        BufferSegments segments = new BufferSegments();
        MemorySegment eight = segments.of(0x10_0000L, 8);
        MemorySegment kib = segments.of(0x10_0000L, 1024);
        assertThat(kib.byteSize()).isEqualTo(1024);
        assertThat(kib.address()).isEqualTo(0x10_0000L);
        assertThat(segments.of(0x10_0000L, 8)).isNotSameAs(eight).satisfies(s -> assertThat(s.byteSize()).isEqualTo(8));
        // many addresses, more than the slots: each answer is still the buffer asked for
        for (long a = 0x20_0000L; a < 0x20_0000L + 100 * 64; a += 64) {
            MemorySegment s = segments.of(a, a & 0xFFF);
            assertThat(s.address()).isEqualTo(a);
            assertThat(s.byteSize()).isEqualTo(a & 0xFFF);
        }
    }
}
