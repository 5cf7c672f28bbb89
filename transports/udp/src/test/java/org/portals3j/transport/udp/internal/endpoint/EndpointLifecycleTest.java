package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.internal.endpoint.EndpointLifecycle.State;

/** The endpoint's lifecycle: the moves it makes, the moves it refuses, and what each state means. */
class EndpointLifecycleTest {

    private static EndpointLifecycle at(State... path) {
        EndpointLifecycle l = new EndpointLifecycle();
        for (State s : path) {
            assertThat(l.moveTo(s)).as("move to %s", s).isTrue();
        }
        return l;
    }

    @Test
    void startThenCloseAndCloseBeforeStart() {
        EndpointLifecycle l = at(State.RUNNING);
        assertThat(l.isRunning()).isTrue();
        assertThat(l.moveTo(State.CLOSED)).isTrue();
        assertThat(l.isClosed()).isTrue();
        assertThat(l.isRunning()).isFalse();

        assertThat(at(State.CLOSED).state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aFailureStopsTheReceivePathAtOnceAndActsAsClosedWhenDone() {
        EndpointLifecycle l = at(State.RUNNING, State.FAILING);
        assertThat(l.isRunning()).isFalse();
        assertThat(l.isClosed()).as("peers are still being failed").isFalse();
        assertThat(l.isFailingOrClosed()).as("but they count as gone already (isPeerAlive)").isTrue();
        assertThat(at(State.RUNNING).isFailingOrClosed()).isFalse();
        assertThat(l.moveTo(State.FAILED)).isTrue();
        assertThat(l.isClosed()).isTrue();
        assertThat(l.moveTo(State.CLOSED)).as("close() still releases the socket").isTrue();
    }

    @Test
    void aCloseDuringAFailureWins() {
        EndpointLifecycle l = at(State.RUNNING, State.FAILING, State.CLOSED);

        assertThat(l.moveTo(State.FAILED)).isFalse();
        assertThat(l.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aMoveToAStateReachedOrPassedIsRefusedQuietly() {
        assertThat(at(State.RUNNING).moveTo(State.RUNNING)).as("started twice").isFalse();
        assertThat(at(State.CLOSED).moveTo(State.CLOSED)).as("closed twice").isFalse();
        assertThat(at(State.CLOSED).moveTo(State.RUNNING)).as("started after close").isFalse();
        assertThat(at(State.RUNNING, State.FAILING).moveTo(State.FAILING)).as("a second failure").isFalse();
        assertThat(at(State.RUNNING, State.CLOSED).moveTo(State.FAILING)).as("a failure after close").isFalse();
        assertThat(at(State.RUNNING, State.CLOSED).moveTo(State.OPEN)).isFalse();
    }

    @Test
    void aMoveThatSkipsAStateIsABug() {
        assertThatThrownBy(() -> at().moveTo(State.FAILING)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("OPEN to FAILING");
        assertThatThrownBy(() -> at().moveTo(State.FAILED)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> at(State.RUNNING).moveTo(State.FAILED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RUNNING to FAILED");
    }

    @Test
    void everyStateLeadsOnlyForward() {
        for (State from : State.values()) {
            for (State to : State.values()) {
                if (from.leadsTo(to)) {
                    assertThat(to).as("%s -> %s", from, to).isGreaterThan(from);
                }
            }
        }
    }
}
