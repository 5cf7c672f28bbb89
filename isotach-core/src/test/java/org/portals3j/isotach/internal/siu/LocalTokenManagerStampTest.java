package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.internal.wire.Frame;

/**
 * The SIU of the token manager's host: a stamp's own mark ahead lets the local manager issue tokens inline, which
 * close pulses here before the stamp returns, so the isochron's marker must already be an entry of its pulse. Host 0
 * of two, the token manager on host 0, distance 1 both ways.
 */
class LocalTokenManagerStampTest {
    private final Object lock = new Object();
    private final OrderRecordingTransport wire = new OrderRecordingTransport(0, 2);
    private final Outbox outbox = new Outbox(wire, lock, 64);
    private final HostLink link = new HostLink(64);
    private final boolean[] alive = {true, true};
    private final Relay relay = new Relay();
    /** Idle ticks of 1 ms on a clock that stands still: the manager issues only when time is needed. */
    private final TokenManager manager = new TokenManager(2, alive, 1, 4, 1_000_000, () -> 0L, relay);
    private final SwitchInterfaceUnit siu = new SwitchInterfaceUnit(0, 2, 0, 2, new int[] {1, 1}, new int[] {1, 1},
            alive, link, outbox, new ClockItemWriter(outbox), manager, () -> 0L, 16, 0, 64);

    LocalTokenManagerStampTest() {
        relay.siu = siu;
    }

    /** Applies the manager's tokens to host 0's SIU inline, as the switch node does on the manager's rank. */
    private static final class Relay implements TokenManager.TokenLinks {
        private @Nullable SwitchInterfaceUnit siu;

        @Override
        public void send(long pulse, int bits, long effectPulse, boolean ackNow) {
            SwitchInterfaceUnit to = siu;
            if (to == null) {
                throw new IllegalStateException("a token before the SIU was built");
            }
            to.token(pulse, bits, effectPulse);
        }
    }

    /** The markers and end-of-pulse records the host would take, oldest first, as "M pulse id" and "E pulse count". */
    private List<String> ordering() {
        List<String> records = new ArrayList<>();
        HostLink.Record r = new HostLink.Record();
        while (link.take(r)) {
            if (r.type == HostLink.ISOCHRON_MARKER) {
                records.add("M " + r.pulse + " " + r.a);
            } else if (r.type == HostLink.END_OF_PULSE) {
                records.add("E " + r.fromPulse + "-" + r.pulse + " " + r.a);
            }
        }
        return records;
    }

    @Test
    void theMarkerIsAnEntryOfItsPulseBeforeTheMarkAheadLetsTheLocalManagerCloseIt() {
        synchronized (lock) {
            manager.start(); // TOKEN(0), applied here at once
            siu.mark(1, 0); // host 1 marked pulse 0 and saw token 0: pulse 1 closes here once host 0 marks pulse 1
            manager.mark(1, 0, 0);
            // Time is needed up to pulse 2: the SIU passes its need on with each acknowledgement, which issues nothing
            // by itself.
            manager.need(2);
            assertThat(siu.tokenSeen()).isZero();
            assertThat(ordering()).containsExactly("E 0-0 0");
            // An isochron to host 1, stamped 0 + 1: its mark ahead of pulse 0 lets the manager issue TOKEN(1) and
            // TOKEN(2) at once, whose own marks close pulse 1 here.
            siu.ship(1, 0, Frame.PREFIX_START_OF_ISOCHRON | Frame.PREFIX_END_OF_ISOCHRON, 7, 0, 0, 0, 0, false, 0,
                    MemorySegment.NULL, 0, -1);
        }
        assertThat(siu.lastStamp()).isEqualTo(1);
        assertThat(siu.tokenSeen()).as("tokens 1 and 2 were issued inside the stamp").isEqualTo(2);
        assertThat(siu.closedPulse()).isEqualTo(1);
        assertThat(ordering()).as("pulse 1 closes counting its marker").containsExactly("M 1 7", "E 1-1 1");
    }
}
