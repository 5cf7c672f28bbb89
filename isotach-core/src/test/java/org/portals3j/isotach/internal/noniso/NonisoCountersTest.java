package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NonisoCountersTest {

    @Test
    void theNamesArePublicAndKeepTheirOrder() {
        assertThat(List.copyOf(new NonisoCounters().snapshot().keySet())).containsExactly(
                "noniso.sent", "noniso.sendRejected", "noniso.shipped", "noniso.received", "noniso.delivered",
                "readResponse.sent", "readResponse.received", "credit.piggyback", "credit.explicit",
                "credit.explicitReceived", "credit.request", "credit.requestReceived", "flow.blocked",
                "barrier.sent", "barrier.received", "send.undelivered", "send.shipFailed", "drop.peerFailed",
                "drop.malformed", "drop.kind", "drop.version", "drop.header", "drop.source", "drop.slot",
                "drop.oversize", "drop.overrun", "drop.credit", "drop.barrier", "drop.deposit",
                "drop.handoffFull", "token.unknown", "peer.failure");
    }

    @Test
    void aHostileFrameCountsUnderItsReasonAndUnderMalformed() {
        NonisoCounters c = new NonisoCounters();
        c.malformed(NonisoCounters.DROP_SLOT);
        c.inc(NonisoCounters.SENT);
        assertThat(c.snapshot()).containsEntry("drop.slot", 1L).containsEntry("drop.malformed", 1L)
                .containsEntry("noniso.sent", 1L).containsEntry("drop.kind", 0L);
    }
}
