package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The read-response body (Isotach report §7.4.5, pp. 69-72; App. B.1.1, pp. 104-107). */
class ReadResponseCodecTest {

    /** I-140: the payload is the value, then the lvar, in network byte order; the read pulse follows. */
    @Test
    void theBodyIsValueThenLvarThenPulseBigEndian_I140() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(64);
            assertThat(ReadResponseCodec.write(seg, 3, 0x0102030405060708L, 0x0A0B0C0D, 0x1112131415161718L))
                    .isEqualTo(ReadResponseCodec.LENGTH).isEqualTo(20);
            byte[] bytes = seg.asSlice(3, 20).toArray(ValueLayout.JAVA_BYTE);
            assertThat(bytes).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 0x0A, 0x0B, 0x0C, 0x0D,
                    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18);
            assertThat(ReadResponseCodec.value(seg, 3)).isEqualTo(0x0102030405060708L);
            assertThat(ReadResponseCodec.readSlot(seg, 3)).isEqualTo(0x0A0B0C0D);
            assertThat(ReadResponseCodec.pulse(seg, 3)).isEqualTo(0x1112131415161718L);
            assertThat(ReadResponseCodec.isValid(seg, 3, 20)).isTrue();
        }
    }

    /** Received bytes are hostile: a wrong length, a body past the end, a negative slot or pulse is invalid. */
    @Test
    void malformedBodiesAreRecognised() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(24);
            ReadResponseCodec.write(seg, 0, -5, 7, 9);
            assertThat(ReadResponseCodec.isValid(seg, 0, 20)).isTrue();
            assertThat(ReadResponseCodec.value(seg, 0)).isEqualTo(-5);
            assertThat(ReadResponseCodec.isValid(seg, 0, 19)).isFalse();
            assertThat(ReadResponseCodec.isValid(seg, 0, 21)).isFalse();
            assertThat(ReadResponseCodec.isValid(seg, 5, 20)).isFalse();
            assertThat(ReadResponseCodec.isValid(seg, -1, 20)).isFalse();
            ReadResponseCodec.write(seg, 0, 1, -1, 9);
            assertThat(ReadResponseCodec.isValid(seg, 0, 20)).isFalse();
            ReadResponseCodec.write(seg, 0, 1, 1, -9);
            assertThat(ReadResponseCodec.isValid(seg, 0, 20)).isFalse();
        }
    }
}
