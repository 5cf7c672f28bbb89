package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The options of MpiAllocations and MpiCallCounts: defaults, both spellings, help, and what is refused. */
class MpiPingPongArgsTest {
    private static final String TOOL = "MpiAllocations";

    @Test
    void noOptionsGiveAnInmemEightByteRunOfTwentyThousandRoundTrips() {
        MpiPingPongArgs a = MpiPingPongArgs.parse(TOOL);
        assertThat(a).isNotNull();
        assertThat(a.transport).isEqualTo("inmem");
        assertThat(a.size).isEqualTo(8);
        assertThat(a.iterations).isEqualTo(20_000);
        assertThat(a.warmup).isEqualTo(20_000);
    }

    @Test
    void optionsTakeTheirValueAfterASpaceOrAnEqualsSign() {
        MpiPingPongArgs a = MpiPingPongArgs.parse(TOOL, "--transport", "udp", "--size=0", "--iterations", "5",
                "--warmup=7");
        assertThat(a).isNotNull();
        assertThat(a.transport).isEqualTo("udp");
        assertThat(a.size).isZero();
        assertThat(a.iterations).isEqualTo(5);
        assertThat(a.warmup).isEqualTo(7);
        assertThat(a.title()).isEqualTo("# MPI layer, transport udp, 0 B blocking ping-pong, 5 round trips after 7"
                + " warm-up");
    }

    @Test
    void helpPrintsTheToolsUsageAndIsNoRun() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThat(MpiPingPongArgs.parse("MpiCallCounts", "--help")).isNull();
        } finally {
            System.setOut(out);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).startsWith("usage: MpiCallCounts [--transport inmem|udp]");
    }

    @Test
    void anUnknownOptionANonNumberAndNoRoundTripsAreRefused() {
        assertThatThrownBy(() -> MpiPingPongArgs.parse(TOOL, "--bogus")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option '--bogus'");
        assertThatThrownBy(() -> MpiPingPongArgs.parse(TOOL, "--size", "eight"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--size");
        assertThatThrownBy(() -> MpiPingPongArgs.parse(TOOL, "--iterations", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--iterations");
    }
}
