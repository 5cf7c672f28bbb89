package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs AmsendHopCost for real, briefly, and checks its figures and what it derives from them (never how fast). */
class AmsendHopCostTest {
    @Test
    void aShortRunMeasuresEachHopAndTheFloorIsDerivedAsDocumented() throws Exception {
        AmsendHopCost.Result r = AmsendHopCost.measure(5_000, 200, true);
        assertThat(r.putNanos()).isPositive();
        assertThat(r.putSendEventsNanos()).isPositive();
        assertThat(r.amsendNanos()).isPositive();
        assertThat(r.putHopMicros()).isPositive();
        assertThat(r.amsendHopMicros()).isPositive();

        AmsendHopCost.Result known = new AmsendHopCost.Result(130, 176, 436, 0.32, 0.63);
        assertThat(known.handOffNanos()).as("the Put hop less its CPU").isCloseTo(190, within(1e-9));
        assertThat(known.floorNanos()).as("the staged put and the hand-off").isCloseTo(366, within(1e-9));
        assertThat(known.layerNanos()).as("the Amsend less the staged put").isCloseTo(260, within(1e-9));
        assertThat(known.roomNanos(1.3)).as("1.3 x 320 ns less the floor").isCloseTo(50, within(1e-9));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AmsendHopCost.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("put, PUT_START and PUT_END taken:",
                "all 4 taken:", "LAPI_Amsend and LAPI_Waitcntr (polling mode):", "AmsendPingPong on inmem, 8 B",
                "floor of an Amsend hop", "what a 1.3x goal leaves the layer per hop:");
    }
}
