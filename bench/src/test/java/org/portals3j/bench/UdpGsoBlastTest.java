package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** Runs the GSO blast's variants for real, briefly: every MiB sent is acknowledged, and GRO coalesces. */
class UdpGsoBlastTest {

    @Test
    void plainSendsDeliverEveryMibOneDatagramPerReceive() throws Throwable {
        UdpGsoBlast.Sample s = UdpGsoBlast.measure(new UdpGsoBlast.Variant(UdpGsoBlast.Mode.PLAIN, 1472), 20);
        assertThat(s.gbps()).isPositive();
        assertThat(s.receivesPerMib()).isGreaterThanOrEqualTo((double) UdpGsoBlast.MIB / 1472);
    }

    @Test
    void gsoSuperDatagramsArriveAsSeparateDatagramsWithoutGroAndWholeWithIt() throws Throwable {
        UdpGsoBlast.Sample segmented;
        try {
            segmented = UdpGsoBlast.measure(new UdpGsoBlast.Variant(UdpGsoBlast.Mode.GSO, 1472), 20);
        } catch (java.io.IOException e) {
            assumeTrue(false, "this kernel refuses UDP GSO: " + e.getMessage());
            return;
        }
        UdpGsoBlast.Sample coalesced = UdpGsoBlast.measure(new UdpGsoBlast.Variant(UdpGsoBlast.Mode.GSO_GRO, 1472),
                20);
        assertThat(segmented.receivesPerMib()).isGreaterThanOrEqualTo((double) UdpGsoBlast.MIB / 1472);
        // 1 MiB in super-datagrams of 44 x 1472 bytes: 16 whole ones and a shorter last one
        assertThat(coalesced.receivesPerMib()).isEqualTo(17.0);
    }
}
