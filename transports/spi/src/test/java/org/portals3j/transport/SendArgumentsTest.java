package org.portals3j.transport;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The checks of Transport.send's arguments: each bad argument is named with the limit it broke. */
class SendArgumentsTest {
    private final MemorySegment header = MemorySegment.ofArray(new byte[64]);
    private final MemorySegment payload = MemorySegment.ofArray(new byte[100]);

    private void check(int peer, int headerLength, long offset, long length) {
        SendArguments.check(peer, 4, header, headerLength, 48, payload, offset, length, 90, "test");
    }

    @Test
    void argumentsWithinEveryLimitPass() {
        assertThatCode(() -> check(0, 48, 0, 90)).doesNotThrowAnyException();
        assertThatCode(() -> check(3, 0, 100, 0)).as("an empty payload at the end").doesNotThrowAnyException();
        assertThatCode(() -> check(1, 10, 10, 90)).doesNotThrowAnyException();
    }

    @Test
    void aPeerOutsideTheJobIsRefused() {
        assertThatThrownBy(() -> check(4, 8, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("peer 4 is not a rank of this job (size 4)");
        assertThatThrownBy(() -> check(-1, 8, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("peer -1");
    }

    @Test
    void aHeaderLongerThanTheLimitOrItsSegmentIsRefused() {
        assertThatThrownBy(() -> check(0, 49, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("header length 49 (max 48, header of 64 bytes)");
        assertThatThrownBy(() -> SendArguments.check(0, 4, header, 65, 256, payload, 0, 0, 90, "test"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("header length 65");
        assertThatThrownBy(() -> check(0, -1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPayloadRegionOutsideItsSegmentIsRefusedWithoutOverflow() {
        assertThatThrownBy(() -> check(0, 8, 11, 90)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("payload region [11, +90) is outside a segment of 100 bytes");
        assertThatThrownBy(() -> check(0, 8, -1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> check(0, 8, 1, Long.MAX_VALUE)).as("offset + length overflows")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPayloadBeyondTheTransportsMaximumIsRefusedNamingIt() {
        MemorySegment big = MemorySegment.ofArray(new byte[200]);
        assertThatThrownBy(() -> SendArguments.check(0, 4, header, 8, 48, big, 0, 91, 90, "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("payload of 91 bytes; the test transport carries at most 90");
    }
}
