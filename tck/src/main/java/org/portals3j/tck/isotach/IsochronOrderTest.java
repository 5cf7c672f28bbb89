package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/** The heart of the layer: isochrons delivered at one logical time, in one order, everywhere. */
class IsochronOrderTest {

    static byte[] tagged(int sender, int seq, int size) {
        ByteBuffer b = ByteBuffer.allocate(Math.max(size, 8)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(seq).putInt(sender);
        return b.array();
    }

    @Test
    @SpecAssertion({"I-016", "I-017", "I-011", "I-043"})
    void twoSendersMulticastIsochronsAreDeliveredAtomicallyAndInTheSameOrderEverywhere() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            int perSender = 20;
            // hosts 0 and 1 each send isochrons to all three hosts (themselves included)
            for (int k = 0; k < perSender; k++) {
                for (int s = 0; s < 2; s++) {
                    IsotachNet net = job.net(s);
                    for (int d = 0; d < 3; d++) {
                        byte[] data = tagged(s, k, 16);
                        while (net.isoSend(d, data, d == 2) != IsotachNet.SUCCESS) {
                            job.pollAll();
                        }
                    }
                }
            }
            List<List<String>> seen = new ArrayList<>();
            for (int h = 0; h < 3; h++) {
                List<String> order = new ArrayList<>();
                List<Delivered> got = new ArrayList<>();
                for (int i = 0; i < 2 * perSender; i++) {
                    Delivered m = job.awaitIso(h);
                    assertThat(m.isNotice()).isFalse();
                    got.add(m);
                    order.add(m.sender() + ":" + m.firstInt());
                }
                // each sender's isochrons in issue order (I-032/G4)
                for (int s = 0; s < 2; s++) {
                    int expect = 0;
                    for (Delivered m : got) {
                        if (m.sender() == s) {
                            assertThat(m.firstInt()).isEqualTo(expect++);
                        }
                    }
                }
                // delivery pulses never decrease (I-002)
                for (int i = 1; i < got.size(); i++) {
                    assertThat(got.get(i).pulse()).isGreaterThanOrEqualTo(got.get(i - 1).pulse());
                }
                seen.add(order);
            }
            assertThat(seen.get(1)).isEqualTo(seen.get(0));
            assertThat(seen.get(2)).isEqualTo(seen.get(0));
        }
    }
}
