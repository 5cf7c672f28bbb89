package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The options of MpiAllocations and MpiCallCounts: defaults, both spellings, help, and what is refused. */
class MpiPingPongArgsTest {

    @Test
    void noOptionsGiveAnInmemEightByteRunOfTwentyThousandRoundTrips() {
        MpiPingPongArgs a = MpiPingPongArgs.parse();
        assertThat(a).isNotNull();
        assertThat(a.transport).isEqualTo("inmem");
        assertThat(a.size).isEqualTo(8);
        assertThat(a.iterations).isEqualTo(20_000);
        assertThat(a.warmup).isEqualTo(20_000);
    }

    @Test
    void optionsTakeTheirValueAfterASpaceOrAnEqualsSign() {
        MpiPingPongArgs a = MpiPingPongArgs.parse("--transport", "udp", "--size=0", "--iterations", "5",
                "--warmup=7");
        assertThat(a).isNotNull();
        assertThat(a.transport).isEqualTo("udp");
        assertThat(a.size).isZero();
        assertThat(a.iterations).isEqualTo(5);
        assertThat(a.warmup).isEqualTo(7);
    }

    @Test
    void helpIsNoRun() {
        assertThat(MpiPingPongArgs.parse("--help")).isNull();
    }

    @Test
    void anUnknownOptionANonNumberAndNoRoundTripsAreRefused() {
        assertThatThrownBy(() -> MpiPingPongArgs.parse("--bogus")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option '--bogus'");
        assertThatThrownBy(() -> MpiPingPongArgs.parse("--size", "eight"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--size");
        assertThatThrownBy(() -> MpiPingPongArgs.parse("--iterations", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--iterations");
    }
}
