package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.internal.engine.NetworkInterfaceState.State;

/**
 * The life of a network interface ({@link NetworkInterfaceState.State}): PtlNIInit makes it live, PtlNIFini ends
 * it, PtlNIInit may start it again; every other transition is refused and leaves the state as it was.
 */
class NetworkInterfaceLifecycleTest {
    private static final Set<String> LEGAL = Set.of("UNINITIALISED->LIVE", "LIVE->FINALISED", "FINALISED->LIVE");

    private static NetworkInterfaceState newInterface() {
        return new NetworkInterfaceState(7, 0, Dialect.PORTALS_3_2, new HandlerCalls(), new Wakeups());
    }

    /** Drives a fresh interface into {@code state} through legal transitions only. */
    private static NetworkInterfaceState in(State state) {
        NetworkInterfaceState ni = newInterface();
        if (state != State.UNINITIALISED) {
            ni.transition(State.LIVE);
        }
        if (state == State.FINALISED) {
            ni.transition(State.FINALISED);
        }
        assertThat(ni.state()).isEqualTo(state);
        return ni;
    }

    @Test
    void everyPairOfStatesIsLegalExactlyWhenTheLifeAllowsIt() {
        for (State from : State.values()) {
            for (State to : State.values()) {
                String pair = from + "->" + to;
                NetworkInterfaceState ni = in(from);
                if (LEGAL.contains(pair)) {
                    assertThat(from.canBecome(to)).as(pair).isTrue();
                    ni.transition(to);
                    assertThat(ni.state()).as(pair).isEqualTo(to);
                } else {
                    assertThat(from.canBecome(to)).as(pair).isFalse();
                    assertThatThrownBy(() -> ni.transition(to)).as(pair)
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("cannot go from " + from + " to " + to);
                    assertThat(ni.state()).as(pair + " leaves the state").isEqualTo(from);
                }
            }
        }
    }

    @Test
    void onlyALiveInterfaceIsLiveAndNamesItsObjects() {
        for (State state : EnumSet.allOf(State.class)) {
            assertThat(in(state).isLive()).as(state.toString()).isEqualTo(state == State.LIVE);
        }
        NetworkInterfaceState ni = newInterface();
        ni.init(5, 1000, 1, NiLimits.DEFAULT, true);
        EventQueueState q = ni.eqs.allocate();
        if (q == null) {
            throw new AssertionError("a live interface has room for an event queue");
        }
        long eq = ni.handleOf(q);
        assertThat(ni.lookupEq(eq)).isSameAs(q);
        long handle = ni.handle();

        ni.teardown();

        assertThat(ni.state()).isEqualTo(State.FINALISED);
        assertThat(ni.lookupEq(eq)).as("objects die with their interface").isNull();
        ni.init(5, 1000, 1, NiLimits.DEFAULT, true);
        assertThat(ni.state()).isEqualTo(State.LIVE);
        assertThat(ni.handle()).as("a new incarnation has a new handle").isNotEqualTo(handle);
    }

    @Test
    void initialisingALiveInterfaceOrFinalisingADeadOneIsABug() {
        NetworkInterfaceState live = in(State.LIVE);
        assertThatThrownBy(() -> live.init(5, 1000, 1, NiLimits.DEFAULT, true))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("LIVE to LIVE");
        NetworkInterfaceState fresh = newInterface();
        assertThatThrownBy(fresh::teardown)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("UNINITIALISED to FINALISED");
    }
}
