package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CountersTest {

    @Test
    void theNamesArePublicAndKeepTheirOrder() {
        assertThat(List.copyOf(new Counters().snapshot().keySet())).containsExactly(
                "datagrams.sent", "datagrams.received", "retransmits", "retransmits.fast", "timeouts", "acks.sent",
                "heartbeats.sent", "messages.sent", "messages.received", "send.errors", "peers.failed",
                "drop.short", "drop.magic", "drop.version", "drop.crc", "drop.mac", "drop.job", "drop.incarnation",
                "drop.duplicate", "drop.window", "drop.malformed", "drop.deadPeer", "retransmits.spurious",
                "cwnd.undos", "drop.replay", "deadNotices.sent", "deadNotices.received", "heartbeats.whileStuck",
                "stalls", "sends.waited");
    }

    @Test
    void eachIndexCountsUnderItsOwnName() {
        Counters c = new Counters();
        c.add(Counters.DATAGRAMS_SENT);
        c.add(Counters.RETRANSMITS, 3);
        c.add(Counters.CWND_UNDOS, 0);
        c.addOnReceivePath(Counters.DROP_MAC);
        c.addOnReceivePath(Counters.DROP_MAC);
        assertThat(c.snapshot()).containsEntry("datagrams.sent", 1L).containsEntry("retransmits", 3L)
                .containsEntry("drop.mac", 2L).containsEntry("cwnd.undos", 0L).containsEntry("datagrams.received", 0L);
        assertThat(c.get(Counters.DROP_MAC)).isEqualTo(2);
    }
}
