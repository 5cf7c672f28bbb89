package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs AmsendHopCost for real, briefly, and checks its figures and what it derives from them (never how fast). */
class AmsendHopCostTest {
    @Test
    void aShortRunMeasuresEachHopAndDerivesTheFloorFromThem() throws Exception {
        AmsendHopCost.Result r = AmsendHopCost.measure(5_000, 200, true);
        assertThat(r.putNanos()).isPositive();
        assertThat(r.putSendEventsNanos()).isPositive();
        assertThat(r.amsendNanos()).isPositive();
        assertThat(r.putHopMicros()).isPositive();
        assertThat(r.amsendHopMicros()).isPositive();
        assertThat(r.handOffNanos()).isEqualTo(r.putHopMicros() * 1e3 - r.putNanos());
        assertThat(r.floorNanos()).isEqualTo(r.putSendEventsNanos() + r.handOffNanos());
        assertThat(r.layerNanos()).isEqualTo(r.amsendNanos() - r.putSendEventsNanos());
        assertThat(r.roomNanos(1.3)).isEqualTo(1.3 * r.putHopMicros() * 1e3 - r.floorNanos());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AmsendHopCost.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("put, PUT_START and PUT_END taken:",
                "all 4 taken:", "LAPI_Amsend and LAPI_Waitcntr (polling mode):", "AmsendPingPong on inmem, 8 B",
                "floor of an Amsend hop", "what a 1.3x goal leaves the layer per hop:");
    }
}
