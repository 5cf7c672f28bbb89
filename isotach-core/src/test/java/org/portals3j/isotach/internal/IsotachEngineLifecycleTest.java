package org.portals3j.isotach.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.IsotachEngine.State;

/** The Isotach net's lifecycle: the legal transitions, the refusal of every other, and the states the calls pass. */
class IsotachEngineLifecycleTest {
    private static final int SUCCESS = 0;
    private static final int FAILURE = 1;

    private static IsotachEngine oneHost() {
        return new IsotachEngine(new SilentTransport(1), IsotachConfig.builder().idleTickMicros(100).build());
    }

    private static final Map<State, Set<State>> LEGAL = Map.of(
            State.CREATED, EnumSet.of(State.OPENING, State.CLOSED),
            State.OPENING, EnumSet.of(State.OPEN, State.CREATED, State.CLOSED),
            State.OPEN, EnumSet.of(State.CLOSE_BARRIER, State.CLOSED),
            State.CLOSE_BARRIER, EnumSet.of(State.DRAINING, State.CLOSED),
            State.DRAINING, EnumSet.of(State.CLOSED),
            State.CLOSED, EnumSet.noneOf(State.class));

    @Test
    void everyStateMayBecomeExactlyItsLegalSuccessors() {
        for (State from : State.values()) {
            for (State to : State.values()) {
                boolean legal = LEGAL.getOrDefault(from, EnumSet.noneOf(State.class)).contains(to);
                assertThat(from.canBecome(to)).as("%s -> %s", from, to).isEqualTo(legal);
            }
        }
    }

    @Test
    void onlyTheOpenStatesLetTheCallsWork() {
        assertThat(EnumSet.allOf(State.class).stream().filter(State::isOpen))
                .containsExactlyInAnyOrder(State.OPEN, State.CLOSE_BARRIER, State.DRAINING);
    }

    @Test
    void anIllegalTransitionIsRefusedAndChangesNothing() {
        IsotachEngine engine = oneHost();
        assertThatThrownBy(() -> engine.state(State.OPEN)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CREATED to OPEN");
        assertThat(engine.state()).isEqualTo(State.CREATED);
        engine.close();
        assertThatThrownBy(() -> engine.state(State.OPENING)).isInstanceOf(IllegalStateException.class);
        assertThat(engine.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void anIsotachNetGoesFromOpenThroughTheClosingBarrierToClosed() {
        IsotachEngine engine = oneHost();
        assertThat(engine.poll()).as("before open_net").isEqualTo(FAILURE);
        assertThat(engine.openNet(EnumSet.of(Interface.ISO_MBM), Duration.ofSeconds(30))).isEqualTo(SUCCESS);
        assertThat(engine.state()).isEqualTo(State.OPEN);
        assertThat(engine.openNet(EnumSet.of(Interface.ISO_MBM), Duration.ofSeconds(30))).as("a second open_net")
                .isEqualTo(FAILURE);
        assertThat(engine.isoSend(0, MemorySegment.ofArray(new byte[] {7}), 1, true)).isEqualTo(SUCCESS);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        IsoMessage m = new IsoMessage();
        while (engine.isoReceive(m) != SUCCESS || m.isNotice()) {
            assertThat(System.nanoTime()).as("the self-message arrives").isLessThan(deadline);
        }
        boolean sawBarrier = false;
        while (engine.tryCloseNet() != SUCCESS) {
            sawBarrier |= engine.state() == State.CLOSE_BARRIER;
            assertThat(engine.state()).isIn(State.CLOSE_BARRIER, State.DRAINING);
            assertThat(System.nanoTime()).as("try_close_net succeeds").isLessThan(deadline);
        }
        assertThat(sawBarrier).as("the closing barrier takes at least one token").isTrue();
        assertThat(engine.state()).isEqualTo(State.CLOSED);
        assertThat(engine.poll()).isEqualTo(FAILURE);
        assertThat(engine.tryCloseNet()).isEqualTo(FAILURE);
        assertThat(engine.isoEnd()).isEqualTo(FAILURE);
        engine.close(); // idempotent
        assertThat(engine.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aNonisoNetClosesThroughItsBarrierAndTheDrainedQueue() {
        IsotachEngine engine = oneHost();
        assertThat(engine.openNet(EnumSet.of(Interface.NONISO), Duration.ofSeconds(30))).isEqualTo(SUCCESS);
        assertThat(engine.tryCloseNet()).as("one host: its own barrier completes at once").isEqualTo(SUCCESS);
        assertThat(engine.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void anOpenNetThatTimesOutLeavesTheNetToBeOpenedAgain() {
        // host 1 never answers
        IsotachEngine engine = new IsotachEngine(new SilentTransport(2), IsotachConfig.defaults());
        assertThat(engine.openNet(EnumSet.of(Interface.ISO_MBM), Duration.ofMillis(20))).isEqualTo(FAILURE);
        assertThat(engine.state()).isEqualTo(State.CREATED);
        assertThat(engine.poll()).isEqualTo(FAILURE);
        engine.close();
        assertThat(engine.openNet(EnumSet.of(Interface.ISO_MBM), Duration.ofMillis(20))).as("closed")
                .isEqualTo(FAILURE);
    }

    @Test
    void aNetClosedBeforeItWasOpenedRefusesEveryCall() {
        IsotachEngine engine = oneHost();
        engine.close();
        assertThat(engine.state()).isEqualTo(State.CLOSED);
        assertThat(engine.openNet(EnumSet.of(Interface.ISO_MBM), Duration.ofSeconds(1))).isEqualTo(FAILURE);
        assertThat(engine.poll()).isEqualTo(FAILURE);
        assertThatThrownBy(() -> engine.isoRetrieve(new IsoVar())).isInstanceOf(IllegalStateException.class);
    }
}
