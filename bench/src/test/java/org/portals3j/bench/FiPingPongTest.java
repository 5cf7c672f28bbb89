package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The libfabric ping-pongs' output parsing and the provider check: no measurement. */
class FiPingPongTest {

    @Test
    void fabtestsSevenColumnResultLineGivesTheUsecPerTransferColumn() throws IOException {
        String out = """
                bytes   iters   total       time     MB/sec    usec/xfer   Mxfers/sec
                8       10k     156k        0.08s      1.98       4.04       0.25
                """;
        String mib = """
                bytes   iters   total       time     MB/sec    usec/xfer   Mxfers/sec
                1m      100     200m        0.42s    499.27    2100.25       0.00
                """;
        assertThat(FiPingPong.parseMicrosPerTransfer(FiPingPong.Tool.FI_RDM_PINGPONG, out, 8)).isEqualTo(4.04);
        assertThat(FiPingPong.parseMicrosPerTransfer(FiPingPong.Tool.FI_RDM_PINGPONG, mib, 1 << 20))
                .isEqualTo(2100.25);
    }

    @Test
    void aResultLineOfTheOtherToolIsNotTakenForOne() {
        String fiPingPong = """
                bytes   #sent   #ack     total       time     MB/sec    usec/xfer   Mxfers/sec
                8       1k      =1k      15k         5.32s      0.00    2659.65       0.00
                """;
        assertThatThrownBy(() -> FiPingPong.parseMicrosPerTransfer(FiPingPong.Tool.FI_RDM_PINGPONG, fiPingPong, 8))
                .isInstanceOf(IOException.class).hasMessageContaining("fi_rdm_pingpong printed no result line");
    }

    @Test
    void aProviderLibfabricDoesNotHaveIsMissingWithTheReason() throws InterruptedException {
        String why = FiPingPong.providerMissing("no-such-provider");
        assertThat(why).isNotNull().contains("no-such-provider");
    }

    @Test
    void libfabricsTcpProviderIsThereWhereFiInfoIs() throws InterruptedException {
        assumeTrue(FiPingPong.onPath("fi_info") != null, "fi_info is not on PATH (libfabric-bin not installed)");
        assertThat(FiPingPong.providerMissing("tcp")).isNull();
    }
}
