package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The frame layout on the wire (Isotach report App. B.1, p. 104; I-136 as far as our own frames go). */
class NonisoFrameTest {

    /**
     * I-136: a data frame's header is 20 bytes, like the report's noniso packet header (Isotach report App. J, utils.h,
     * pp. 169-175); byte 0 is the kind, byte 1 the version, and the fields are big-endian (network order, as on the
     * report's wire).
     */
    @Test
    void i136_dataFrameLayout() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            c.host(0).send(1, c.payload(1, 33), 33);
            c.host(0).send(1, c.payload(2, 300 % 64), 300 % 64);
            List<byte[]> sent = c.net.headersSentBy(0);
            assertThat(sent).hasSize(2);
            byte[] h = sent.get(1);
            assertThat(h).hasSize(20);
            assertThat(h[0]).isEqualTo((byte) 0x20);
            assertThat(h[1]).isEqualTo((byte) 1);
            assertThat(h[2]).as("no credit news").isZero();
            assertThat(h[3]).isZero();
            assertThat(new byte[] {h[4], h[5], h[6], h[7]}).as("slot 1, big-endian").containsExactly(0, 0, 0, 1);
            assertThat(new byte[] {h[16], h[17], h[18], h[19]}).as("length").containsExactly(0, 0, 0, 300 % 64);
        }
    }

    /** Every kind has one fixed length, and every kind the module sends is in its 0x20-0x2F range. */
    @Test
    void kindsAndLengths() {
        byte[] kinds = {NonisoFrame.KIND_DATA, NonisoFrame.KIND_READ_RESPONSE, NonisoFrame.KIND_CREDIT,
                        NonisoFrame.KIND_CREDIT_REQUEST, NonisoFrame.KIND_BARRIER};
        int[] lengths = {20, 40, 16, 16, 24};
        for (int i = 0; i < kinds.length; i++) {
            assertThat(NonisoLayer.owns(kinds[i])).isTrue();
            assertThat(NonisoFrame.lengthOf(kinds[i])).isEqualTo(lengths[i]);
            assertThat(lengths[i]).isLessThanOrEqualTo(NonisoFrame.MAX_LENGTH);
        }
        assertThat(NonisoFrame.lengthOf((byte) 0x2F)).isEqualTo(-1);
    }
}
