package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
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
        UdpGsoBlast.Sample coalesced;
        try {
            segmented = UdpGsoBlast.measure(new UdpGsoBlast.Variant(UdpGsoBlast.Mode.GSO, 1472), 20);
            coalesced = UdpGsoBlast.measure(new UdpGsoBlast.Variant(UdpGsoBlast.Mode.GSO_GRO, 1472), 20);
        } catch (IOException e) {
            assumeTrue(false, "this kernel refuses UDP GSO or GRO (Linux 4.18 and 5.0 added them): "
                    + e.getMessage());
            return;
        }
        assertThat(segmented.receivesPerMib()).isGreaterThanOrEqualTo((double) UdpGsoBlast.MIB / 1472);
        // 1 MiB in super-datagrams of 44 x 1472 bytes: 16 whole ones and a shorter last one
        assertThat(coalesced.receivesPerMib()).isEqualTo(17.0);
    }
}
