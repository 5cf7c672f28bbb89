package org.portals3j.transport.udp.internal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The reordering window's rules, one by one (times in nanoseconds; min RTT 20 ms, SRTT 25 ms). */
class ReorderWindowTest {
    private static final long MS = 1_000_000L;
    private static final long MIN_RTT = 20 * MS;
    private static final long SRTT = 25 * MS;

    private final ReorderWindow r = new ReorderWindow();

    @Test
    void beforeAnyReorderingItIsAQuarterRoundTripOrNothingOnceALossIsLikely() {
        assertThat(r.window(MIN_RTT, SRTT, false, false)).isEqualTo(5 * MS);
        assertThat(r.window(MIN_RTT, SRTT, false, true)).as("three later fragments arrived").isZero();
        assertThat(r.window(MIN_RTT, SRTT, true, false)).as("in a recovery").isZero();
        assertThat(r.window(Long.MAX_VALUE, SRTT, false, false)).as("no round trip measured").isZero();
    }

    @Test
    void reorderingSeenWidensItByTheLargestDelayObservedUpToSrtt() {
        r.observed(3 * MS);
        r.observed(2 * MS);
        assertThat(r.window(MIN_RTT, SRTT, true, true)).isEqualTo(5 * MS + 3 * MS);
        r.observed(40 * MS);
        assertThat(r.window(MIN_RTT, SRTT, false, false)).isEqualTo(SRTT);
    }

    @Test
    void shouldGrowByAQuarterRoundTripPerRoundWithASpuriousRetransmission() {
        r.spurious(10, 50, MIN_RTT);
        assertThat(r.window(MIN_RTT, SRTT, false, true)).isEqualTo(10 * MS);
        r.spurious(30, 60, MIN_RTT); // same round: the cumulative ack has not passed 50
        assertThat(r.window(MIN_RTT, SRTT, false, true)).isEqualTo(10 * MS);
        r.spurious(50, 90, MIN_RTT);
        assertThat(r.window(MIN_RTT, SRTT, false, true)).isEqualTo(15 * MS);
    }

    @Test
    void shouldForgetAfterSixteenRecoveriesWithoutReordering() {
        r.observed(8 * MS);
        for (int i = 0; i < ReorderWindow.PERSIST_RECOVERIES - 1; i++) {
            r.recoveryEnded();
        }
        assertThat(r.seen()).isTrue();
        r.observed(1 * MS); // seen again: remembered for sixteen more
        for (int i = 0; i < ReorderWindow.PERSIST_RECOVERIES - 1; i++) {
            r.recoveryEnded();
        }
        assertThat(r.window(MIN_RTT, SRTT, false, false)).isEqualTo(13 * MS);
        r.recoveryEnded();
        assertThat(r.seen()).isFalse();
        assertThat(r.window(MIN_RTT, SRTT, false, true)).isZero();
    }
}
