package org.portals3j.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;

class IdleStrategiesTest {
    private final List<Long> parks = new ArrayList<>();

    @Test
    void backoffSpinsThenYieldsThenParksDoublingUpToItsLongestPark() {
        IdleStrategy idle = new BackoffIdle(2, 1, 10, 35, parks::add);

        for (int i = 0; i < 3; i++) {
            assertThat(idle.parksNext()).as("round " + i + " spins or yields").isFalse();
            idle.idle(0);
        }
        assertThat(parks).isEmpty();
        for (int i = 0; i < 4; i++) {
            assertThat(idle.parksNext()).isTrue();
            idle.idle(0);
        }

        assertThat(parks).containsExactly(10L, 20L, 35L, 35L);
    }

    @Test
    void workStartsTheBackoffOver() {
        IdleStrategy idle = new BackoffIdle(1, 0, 10, 100, parks::add);
        idle.idle(0);
        idle.idle(0);
        idle.idle(0);

        idle.idle(3);

        assertThat(idle.parksNext()).isFalse();
        idle.idle(0);
        idle.idle(0);
        assertThat(parks).containsExactly(10L, 20L, 10L);
    }

    @Test
    void aBackoffThatYieldsForeverNeverParks() {
        IdleStrategy idle = new BackoffIdle(1, Integer.MAX_VALUE, 10, 100, parks::add);

        for (int i = 0; i < 1_000; i++) {
            idle.idle(0);
        }

        assertThat(idle.parksNext()).isFalse();
        assertThat(parks).isEmpty();
    }

    @Test
    void eachModeParksAsItSays() {
        for (IdleMode mode : IdleMode.values()) {
            IdleStrategy idle = IdleStrategies.of(mode, parks::add);
            for (int i = 0; i < IdleMode.BACKOFF_SPINS + IdleMode.BACKOFF_YIELDS + 2; i++) {
                idle.idle(0);
            }
        }

        assertThat(parks).as("PARK parks every round; BACKOFF after its spins and yields; SPIN and YIELD never")
                .hasSize(IdleMode.BACKOFF_SPINS + IdleMode.BACKOFF_YIELDS + 2 + 2);
        assertThat(parks.subList(parks.size() - 2, parks.size()))
                .containsExactly(IdleMode.BACKOFF_MIN_PARK_NANOS, 2 * IdleMode.BACKOFF_MIN_PARK_NANOS);
    }

    @Test
    void anOversubscribedBackoffParksAfterItsShortSpinAndItsYields() {
        IdleStrategy idle = IdleStrategies.of(IdleMode.BACKOFF, true, parks::add);
        int beforePark = IdleMode.OVERSUBSCRIBED_SPINS + IdleMode.BACKOFF_YIELDS;

        for (int i = 0; i < beforePark; i++) {
            assertThat(idle.parksNext()).as("round " + i + " spins or yields").isFalse();
            idle.idle(0);
        }
        assertThat(parks).isEmpty();
        idle.idle(0);

        assertThat(parks).containsExactly(IdleMode.BACKOFF_MIN_PARK_NANOS);
        assertThat(IdleMode.OVERSUBSCRIBED_SPINS).isLessThan(IdleMode.BACKOFF_SPINS / 10);
    }

    @Test
    void aBackoffNotOversubscribedSpinsItsFullCountFirst() {
        IdleStrategy idle = IdleStrategies.of(IdleMode.BACKOFF, false, parks::add);

        for (int i = 0; i < IdleMode.OVERSUBSCRIBED_SPINS + IdleMode.BACKOFF_YIELDS + 1; i++) {
            idle.idle(0);
        }

        assertThat(parks).as("still spinning").isEmpty();
        assertThat(idle.parksNext()).isFalse();
    }

    @Test
    void oversubscriptionLeavesTheExplicitModesAsTheyAre() {
        for (IdleMode mode : new IdleMode[] {IdleMode.SPIN, IdleMode.YIELD, IdleMode.PARK}) {
            IdleStrategy over = IdleStrategies.of(mode, true, parks::add);
            IdleStrategy not = IdleStrategies.of(mode, false, parks::add);
            assertThat(over.getClass()).as(mode.name()).isEqualTo(not.getClass());
        }
    }

    @Test
    void anAgentRestsOnEveryIdleRoundOfTheModesThatPark() {
        for (IdleMode mode : IdleMode.values()) {
            IdleStrategy idle = IdleStrategies.forAgent(mode, parks::add);
            idle.idle(0);
            idle.idle(1);
        }

        assertThat(parks).as("PARK and BACKOFF rest at once; SPIN and YIELD never; work does not rest")
                .containsExactly(IdleMode.PARK_NANOS, IdleMode.PARK_NANOS);
    }

    @Test
    void aBackoffOfNoParkPeriodIsRefused() {
        assertThatThrownBy(() -> new BackoffIdle(1, 1, 0, 10, parks::add))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 < min park");
        assertThatThrownBy(() -> new ParkingIdle(0, parks::add))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be positive");
    }
}
