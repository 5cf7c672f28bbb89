package org.portals3j.isotach.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachFatalError;

/** The ordering module alone: buckets, end-of-pulse processing, isochron markers and post_isochron. */
class OrderingModuleTest {
    private static final int ME = 1;

    private final OutstandingIsochrons outstanding = new OutstandingIsochrons(8);
    private final DeliveryQueue delivery = new DeliveryQueue(64);

    private OrderingModule module(boolean ordering) {
        return new OrderingModule(ME, 3, ordering, 8, outstanding, delivery);
    }

    /** What the delivery queue holds, as "type:sender:detail@pulse", emptying it. */
    private List<String> drain() {
        List<String> out = new ArrayList<>();
        while (!delivery.isEmpty()) {
            int i = delivery.oldest();
            out.add(delivery.type(i) + ":" + delivery.sender(i) + ":" + delivery.slot(i) + "@" + delivery.pulse(i));
            delivery.removeOldest();
        }
        return out;
    }

    @Test
    void aPulseIsDeliveredInItsSortVectorsOrderThenItsNotices() {
        OrderingModule m = module(true);
        m.packet(0, IsotachHost.ISO_MBM, 2, 0, 8, 0, 0);
        m.packet(0, IsotachHost.ISO_MBM, 0, 0, 8, 0, 0);
        m.packet(1, IsotachHost.ISO_MBM, 2, 1, 8, 0, 0);
        m.endOfPulses(0, 0, 2, 0x04 | 0x01, new byte[] {1, 0});
        assertThat(drain()).containsExactly("1:0:0@0", "1:2:0@0", "3:-1:4@0", "3:-1:1@0");
        assertThat(m.closedPulse()).isZero();
        m.endOfPulses(1, 1, 1, 0, new byte[] {0});
        assertThat(drain()).containsExactly("1:2:1@1");
    }

    @Test
    void aRunOfEmptyPulsesClosesEachAndOnlyTheLastCarriesItsEntries() {
        OrderingModule m = module(true);
        m.packet(3, IsotachHost.ISO_MBM, 0, 0, 8, 0, 0);
        m.endOfPulses(0, 3, 1, 0, new byte[] {0});
        assertThat(m.closedPulse()).isEqualTo(3);
        assertThat(m.pulsesProcessed()).isEqualTo(4);
        assertThat(drain()).containsExactly("1:0:0@3");
        assertThatThrownBy(() -> m.endOfPulses(5, 5, 0, 0, new byte[0])).isInstanceOf(IsotachFatalError.class)
                .hasMessageContaining("after pulse 3");
    }

    @Test
    void anEndOfPulseCountThatDiffersFromTheBucketIsFatal() {
        OrderingModule m = module(true);
        m.packet(0, IsotachHost.ISO_MBM, 0, 0, 8, 0, 0);
        assertThatThrownBy(() -> m.endOfPulses(0, 0, 2, 0, new byte[] {0, 1})).isInstanceOf(IsotachFatalError.class)
                .hasMessageContaining("count");
    }

    @Test
    void aBucketHoldsAtMostItsCapacityAndOnePulseAtATime() {
        OrderingModule m = module(true);
        for (int k = 0; k < 8; k++) {
            m.packet(2, IsotachHost.ISO_MBM, 0, k, 8, 0, 0);
        }
        assertThatThrownBy(() -> m.packet(2, IsotachHost.ISO_MBM, 0, 8, 8, 0, 0))
                .isInstanceOf(IsotachFatalError.class).hasMessageContaining("bucket overflow");
        assertThatThrownBy(() -> m.packet(258, IsotachHost.ISO_MBM, 0, 0, 8, 0, 0))
                .isInstanceOf(IsotachFatalError.class).hasMessageContaining("holds pulse 2");
    }

    @Test
    void anIsochronMarkerReleasesTheSelfMessagesOfTheOldestOutstandingIsochron() {
        OrderingModule m = module(true);
        m.postIsochron(true, 2, 7); // a net-isochron with two self-messages
        // a self-isochron after it: executes with its marker (Isotach report §3.3.3, pp. 10-14)
        m.postIsochron(false, 1, -1);
        m.isochronMarker(4, 7);
        m.packet(4, IsotachHost.ISO_MBM, 2, 0, 8, 0, 0);
        m.endOfPulses(0, 4, 2, 0, new byte[] {0, 1}); // the marker is host 1's entry: before host 2's packet
        assertThat(drain()).containsExactly("2:1:3@4", "1:2:0@4");
        assertThat(outstanding.isEmpty()).isTrue();
        m.isochronMarker(5, 8);
        assertThatThrownBy(() -> m.endOfPulses(5, 5, 1, 0, new byte[] {0})).isInstanceOf(IsotachFatalError.class)
                .hasMessageContaining("no isochron outstanding");
    }

    @Test
    void selfIsochronsWithNothingOutstandingAreDeliverableAtOnceInOneRun() {
        OrderingModule m = module(true);
        m.postIsochron(false, 1, -1);
        m.postIsochron(false, 2, -1);
        assertThat(drain()).containsExactly("2:1:3@-1");
    }

    @Test
    void aSelfIsochronAfterANetIsochronsMarkerIsNoEarlierThanItsPulseEvenBehindAnUnreceivedRun() {
        OrderingModule m = module(true);
        m.postIsochron(true, 1, 7); // net-isochron 7 with one self-message: a run at pulse 4, not yet received
        m.isochronMarker(4, 7);
        m.endOfPulses(0, 4, 1, 0, new byte[] {0});
        m.postIsochron(true, 0, 8); // net-isochron 8, nothing for this host: its marker closes pulse 5 silently
        m.isochronMarker(5, 8);
        m.endOfPulses(5, 5, 1, 0, new byte[] {0});
        m.postIsochron(false, 1, -1); // a self-isochron issued after isochron 8 (I-034)
        assertThat(drain()).containsExactly("2:1:1@4", "2:1:1@5");
    }

    @Test
    void withSharedMemoryASelfIsochronExecutesInTheNextPulseAtThisHostsPlace() {
        OrderingModule m = module(true);
        m.sharedMemoryMode();
        m.postIsochron(false, 1, -1); // bucketed for pulse 0, not counted by the SIU
        m.packet(0, 0x11, 2, 0, 0, 100, 0);
        m.packet(0, 0x11, 0, 1, 0, 100, 0);
        m.endOfPulses(0, 0, 2, 0, new byte[] {1, 0});
        assertThat(drain()).as("by sender: host 0, this host (1), host 2").containsExactly("4:0:17@0", "2:1:1@0",
                "4:2:17@0");
    }

    @Test
    void mbmVersionOneDeliversInArrivalOrderAndQueuesNoNotices() {
        OrderingModule m = module(false);
        m.packet(1, IsotachHost.ISO_MBM, 2, 0, 8, 0, 0);
        m.isochronMarker(1, 0);
        m.packet(0, IsotachHost.ISO_MBM, 0, 0, 8, 0, 0);
        m.endOfPulses(0, 1, 0, 0xFF, new byte[0]);
        assertThat(drain()).containsExactly("1:2:0@1", "1:0:0@0");
    }

    @Test
    void anIsochronMarkerOfAPulseAlreadyClosedIsFatalNotLost() {
        OrderingModule m = module(true);
        m.postIsochron(true, 0, 0);
        m.endOfPulses(0, 2, 0, 0, new byte[0]);
        assertThatThrownBy(() -> m.isochronMarker(2, 0)).isInstanceOf(IsotachFatalError.class)
                .hasMessageContaining("pulse 2 after pulse 2 was closed");
        assertThatThrownBy(() -> m.packet(1, IsotachHost.ISO_MBM, 0, 0, 8, 0, 0))
                .isInstanceOf(IsotachFatalError.class).hasMessageContaining("pulse 1 after pulse 2 was closed");
    }
}
