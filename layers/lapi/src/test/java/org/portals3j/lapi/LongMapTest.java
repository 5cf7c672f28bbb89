package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The primitive map that resolves C counter addresses without boxing. */
class LongMapTest {

    @Test
    @SuppressWarnings("nullness") // get's nullable results go to assertThat, which checks them
    void findsEveryKeyAcrossGrowthAndReplacesValues() {
        LongMap<String> map = new LongMap<>();
        for (long k = 1; k <= 1000; k++) {
            map.put(k * 4096 + 0x7f00_0000_0000L, "v" + k);
        }
        for (long k = 1; k <= 1000; k++) {
            assertThat(map.get(k * 4096 + 0x7f00_0000_0000L)).isEqualTo("v" + k);
        }
        assertThat(map.get(12345)).isNull();
        map.put(4096 + 0x7f00_0000_0000L, "again");
        assertThat(map.get(4096 + 0x7f00_0000_0000L)).isEqualTo("again");
        assertThat(map.toString()).contains("1000");
        assertThatThrownBy(() -> map.put(0, "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
