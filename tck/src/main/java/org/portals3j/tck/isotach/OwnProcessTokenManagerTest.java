package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.isotach.IsoTestSupport.awaitNotice;
import static org.portals3j.tck.isotach.IsoTestSupport.isoSend;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.TmPlacement;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * The token manager as its own process ({@link TmPlacement#OWN_PROCESS}): the job's last rank runs only the token
 * manager and is not a host (Isotach report App. A.2, pp. 95-96). The layer must behave exactly as with the token
 * manager in host 0.
 */
class OwnProcessTokenManagerTest {

    @Test
    @SpecAssertion({"I-122", "I-126"})
    void isotachMessagesSignalsAndBarriersWorkWithTheTokenManagerInItsOwnProcess() {
        IsotachConfig config = IsotachConfig.builder().tmPlacement(TmPlacement.OWN_PROCESS).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config)
                .interfaces(EnumSet.of(Interface.NONISO, Interface.ISO_MBM)).open()) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).getNumberOfHosts()).as("the token manager is not a host").isEqualTo(3);
                assertThat(job.net(h).getMyNodeNumber()).isEqualTo(h);
                assertThat(job.net(h).isoRegisterBarrier(1, BarrierMode.STRONG)).isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(h).isoRegisterSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            }
            assertThat(job.net(0).send(3, payload(0, 0, 8))).as("rank 3 is no host").isEqualTo(IsotachNet.FAILURE);
            assertThat(job.net(0).isoSend(3, payload(0, 0, 8), true)).isEqualTo(IsotachNet.FAILURE);
            int per = 10;
            for (int k = 0; k < per; k++) {
                for (int s = 0; s < 3; s++) {
                    for (int d = 0; d < 3; d++) {
                        isoSend(job, s, d, payload(s, k, 16), d == 2);
                    }
                }
            }
            assertThat(job.net(1).isoSendSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            List<List<String>> orders = new ArrayList<>();
            long signalPulse = -1;
            for (int h = 0; h < 3; h++) {
                List<String> order = new ArrayList<>();
                int[] next = new int[3];
                for (int i = 0; i < 3 * per; i++) {
                    Delivered m = job.awaitIso(h);
                    assertThat(m.isNotice()).as("host %d message %d", h, i).isFalse();
                    assertThat(seq(m.data())).isEqualTo(next[m.sender()]++);
                    order.add(m.sender() + ":" + seq(m.data()));
                }
                Delivered n = awaitNotice(job, h);
                assertThat(n.bits()).isEqualTo(1 << 4);
                if (h == 0) {
                    signalPulse = n.pulse();
                } else {
                    assertThat(n.pulse()).isEqualTo(signalPulse);
                }
                orders.add(order);
            }
            assertThat(orders.get(1)).isEqualTo(orders.get(0));
            assertThat(orders.get(2)).isEqualTo(orders.get(0));

            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoBarrier(1, BarrierMode.STRONG)).isEqualTo(IsotachNet.SUCCESS);
            }
            long p = awaitNotice(job, 0).pulse();
            assertThat(awaitNotice(job, 1).pulse()).isEqualTo(p);
            assertThat(awaitNotice(job, 2).pulse()).isEqualTo(p);
            job.closeNetAll();
        }
    }
}
