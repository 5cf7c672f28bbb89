package org.portals3j.transport.gm.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizeClassesTest {

    @Test
    void sizeIsTheCeilingOfLog2OfLengthPlusEight() {
        assertThat(SizeClasses.minSizeForLength(0)).isEqualTo(3);
        assertThat(SizeClasses.minSizeForLength(1)).isEqualTo(4);
        assertThat(SizeClasses.minSizeForLength(8)).isEqualTo(4);
        assertThat(SizeClasses.minSizeForLength(9)).isEqualTo(5);
        assertThat(SizeClasses.minSizeForLength(40)).isEqualTo(6);
        assertThat(SizeClasses.minSizeForLength(56)).isEqualTo(6);
        assertThat(SizeClasses.minSizeForLength(57)).isEqualTo(7);
        assertThat(SizeClasses.minSizeForLength(4088)).isEqualTo(12);
        assertThat(SizeClasses.minSizeForLength(4089)).isEqualTo(13);
        for (int s = SizeClasses.MIN_SIZE; s <= SizeClasses.MAX_SIZE; s++) {
            assertThat(SizeClasses.minSizeForLength(SizeClasses.maxLengthForSize(s))).as("size %d", s)
                    .isLessThanOrEqualTo(s);
        }
    }

    @Test
    void aBufferOfSizeSHoldsTwoToTheSMinusEightBytes() {
        assertThat(SizeClasses.maxLengthForSize(6)).isEqualTo(56);
        assertThat(SizeClasses.maxLengthForSize(31)).isEqualTo((1L << 31) - 8);
        assertThat(SizeClasses.maxLengthForSize(3)).isZero();
        assertThatThrownBy(() -> SizeClasses.maxLengthForSize(32)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SizeClasses.maxLengthForSize(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SizeClasses.minSizeForLength(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SizeClasses.minSizeForLength(1L << 31)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSenderTakesTheSmallestPrepostedClassAtOrAboveTheMinimum() {
        SizeClasses sizes = new SizeClasses(9, 12, 14);
        assertThat(sizes.indexFor(0)).isZero();
        assertThat(sizes.indexFor(504)).isZero();
        assertThat(sizes.indexFor(505)).isEqualTo(1);
        assertThat(sizes.indexFor(4088)).isEqualTo(1);
        assertThat(sizes.indexFor(4089)).isEqualTo(2);
        assertThat(sizes.indexFor(16376)).isEqualTo(2);
        assertThat(sizes.indexFor(16377)).isEqualTo(-1);
        assertThat(sizes.largestLength()).isEqualTo(16376);
        assertThat(sizes.indexOfSize(12)).isEqualTo(1);
        assertThat(sizes.indexOfSize(13)).isEqualTo(-1);
    }

    @Test
    void classesMustAscendWithinGmsRange() {
        assertThatThrownBy(() -> new SizeClasses(12, 9)).hasMessageContaining("ascend");
        assertThatThrownBy(() -> new SizeClasses(0)).hasMessageContaining("ascend");
        assertThatThrownBy(SizeClasses::new).hasMessageContaining("at least one");
    }
}
