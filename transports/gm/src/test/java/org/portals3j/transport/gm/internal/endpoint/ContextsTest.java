package org.portals3j.transport.gm.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContextsTest {

    @Test
    void kindPeerAndIndexComeBackApart() {
        long c = Contexts.of(Contexts.CONTROL, 4095, Contexts.MAX_INDEX - 1);
        assertThat(Contexts.kind(c)).isEqualTo(Contexts.CONTROL);
        assertThat(Contexts.peer(c)).isEqualTo(4095);
        assertThat(Contexts.index(c)).isEqualTo(Contexts.MAX_INDEX - 1);
        long r = Contexts.of(Contexts.RECEIVE, 0, 7);
        assertThat(Contexts.kind(r)).isEqualTo(Contexts.RECEIVE);
        assertThat(Contexts.peer(r)).isZero();
        assertThat(Contexts.index(r)).isEqualTo(7);
    }
}
