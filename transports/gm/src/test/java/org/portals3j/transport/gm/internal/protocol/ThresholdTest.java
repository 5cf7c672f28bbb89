package org.portals3j.transport.gm.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThresholdTest {
    private final SizeClasses sizes = new SizeClasses(9, 12, 14);

    @Test
    void payloadsUpToTheThresholdGoEagerlyAndLargerOnesByRma() {
        Threshold t = new Threshold(8192, sizes);
        assertThat(t.eager(0, 0)).isTrue();
        assertThat(t.eager(256, 8192)).isTrue();
        assertThat(t.eager(0, 8193)).isFalse();
    }

    @Test
    void aMessageThatFitsNoBufferGoesByRmaWhateverTheThreshold() {
        Threshold t = new Threshold(1 << 20, sizes);
        assertThat(t.eager(0, 16376 - WireHeader.LENGTH)).isTrue();
        assertThat(t.eager(1, 16376 - WireHeader.LENGTH)).isFalse();
    }

    @Test
    void aThresholdOfZeroSendsEveryPayloadByRma() {
        Threshold t = new Threshold(0, sizes);
        assertThat(t.eager(10, 0)).isTrue();
        assertThat(t.eager(10, 1)).isFalse();
    }

    @Test
    void theSizeClassIsTheSmallestThatHoldsTheWholeMessage() {
        Threshold t = new Threshold(8192, sizes);
        assertThat(t.sizeIndex(40)).isZero();
        assertThat(t.sizeIndex(5000)).isEqualTo(2);
        assertThatThrownBy(() -> t.sizeIndex(20000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Threshold(-1, sizes)).isInstanceOf(IllegalArgumentException.class);
    }
}
