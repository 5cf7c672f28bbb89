package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs HandOffFloor for real, briefly, and checks its figures and lines (never how fast it was). */
class HandOffFloorTest {

    @Test
    void aShortRunTimesEveryModeAndTheFloorAgainstTheFlag() throws Exception {
        HandOffFloor.Result r = HandOffFloor.measure(1, 2_000, 0.2);

        assertThat(r.halfRoundTrip()).containsOnlyKeys(HandOffFloor.Mode.values());
        assertThat(r.halfRoundTrip().values()).allSatisfy(v -> assertThat(v).isPositive());
        assertThat(r.ratio(HandOffFloor.Mode.FLAG)).isEqualTo(1.0);
        assertThat(r.portalsInstructions()).isPositive();
        double flag = r.halfRoundTrip().get(HandOffFloor.Mode.FLAG);
        assertThat(r.floorRatio()).isCloseTo((flag + r.portalsInstructions()) / flag, within(1e-9));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        HandOffFloor.print(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("Hand-off between two threads, half round trip p50 over 1 rounds of 2000:")
                .contains("FLAG_AND_HEADER   88 B of data").contains("Portals put + 2 events on one core");
    }

    @Test
    void noRoundsIsRefused() {
        assertThatThrownBy(() -> HandOffFloor.measure(0, 10, 0.1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }
}
