package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.internal.endpoint.Peer.State;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;

/** A peer's lifecycle: fail-stop (a dead peer is never readmitted), one transition method, under the peer's lock. */
class PeerStateTest {

    private static Peer peer() {
        return new Peer(3, 64, 64, 2048, 1900, 256, new DatagramCodec(new AutoMac(new byte[32])),
                new RttEstimator(1, 2, 1), 16, 1 << 20);
    }

    private static void move(Peer p, State next) {
        p.lock.lock();
        try {
            p.state(next);
        } finally {
            p.lock.unlock();
        }
    }

    @Test
    void alivePeersTakeSendsDeadOnesDoNot() {
        Peer p = peer();
        assertThat(p.isAlive()).isTrue();
        assertThat(p.isDead()).isFalse();

        move(p, State.OVERRUN);
        assertThat(p.isAlive()).as("sends to it fail").isFalse();
        assertThat(p.isDead()).as("not declared dead yet").isFalse();

        move(p, State.DEAD);
        assertThat(p.isDead()).isTrue();
        move(p, State.TOLD_DEAD);
        assertThat(p.isDead()).isTrue();
        assertThat(p.state()).isEqualTo(State.TOLD_DEAD);
    }

    @Test
    void aLivePeerMayBeDeclaredDeadDirectly() {
        Peer p = peer();
        move(p, State.DEAD);
        assertThat(p.state()).isEqualTo(State.DEAD);
    }

    @Test
    void aDeadPeerIsNeverReadmitted() {
        Peer p = peer();
        move(p, State.DEAD);

        assertThatThrownBy(() -> move(p, State.ALIVE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("peer 3").hasMessageContaining("DEAD to ALIVE");
        assertThatThrownBy(() -> move(p, State.OVERRUN)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> move(p, State.DEAD)).as("declared dead twice")
                .isInstanceOf(IllegalStateException.class);
        assertThat(p.state()).isEqualTo(State.DEAD);
    }

    @Test
    void onlyADeadPeerIsToldSo() {
        Peer p = peer();
        assertThatThrownBy(() -> move(p, State.TOLD_DEAD)).isInstanceOf(IllegalStateException.class);
        move(p, State.OVERRUN);
        assertThatThrownBy(() -> move(p, State.TOLD_DEAD)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> move(p, State.ALIVE)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theStateChangesOnlyUnderThePeersLock() {
        Peer p = peer();

        assertThatThrownBy(() -> p.state(State.DEAD)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without its lock");
        assertThat(p.state()).isEqualTo(State.ALIVE);
    }
}
