package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/** LAPI_Qenv and LAPI_Senv, and LapiConfig's validation (LAPI_Qenv, LAPI_Senv man pages; O-01..O-03, O-08). */
class QenvTest {

    @Test
    void qenvAnswersEveryQuery() throws Exception {
        LapiConfig config = LapiConfig.DEFAULT.withMaxUhdr(64).withMaxData(5000).withAddressTableSize(32)
                .withPacketPayload(512);
        try (LapiJob job = LapiJob.start(3, config)) {
            for (int r = 0; r < 3; r++) {
                LapiContext c = job.task(r);
                assertThat(c.qenv(LapiQuery.TASK_ID)).isEqualTo(r).isEqualTo(c.taskId());
                assertThat(c.qenv(LapiQuery.NUM_TASKS)).isEqualTo(3).isEqualTo(c.numTasks());
                assertThat(c.qenv(LapiQuery.MAX_UHDR_SZ)).isEqualTo(64);
                assertThat(c.qenv(LapiQuery.MAX_DATA_SZ)).isEqualTo(5000);
                assertThat(c.qenv(LapiQuery.LOC_ADDRTBL_SZ)).isEqualTo(32);
                assertThat(c.qenv(LapiQuery.ERROR_CHK)).isEqualTo(1);
                assertThat(c.qenv(LapiQuery.INTERRUPT_SET)).isEqualTo(1);
                assertThat(c.qenv(LapiQuery.PKT_PAYLOAD_SZ)).isEqualTo(512);
            }
        }
    }

    @Test
    @SuppressWarnings("nullness") // a null query on purpose
    void senvSetsOnlyWhatIsWritableAndRefusesOtherValues() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiContext c = job.task(0);
            c.senv(LapiQuery.ERROR_CHK, 1);
            c.senv(LapiQuery.INTERRUPT_SET, 1);
            assertCode(LapiError.SET_VAL, () -> c.senv(LapiQuery.ERROR_CHK, 0));
            assertCode(LapiError.SET_VAL, () -> c.senv(LapiQuery.INTERRUPT_SET, 0));
            assertCode(LapiError.QUERY_TYPE, () -> c.senv(LapiQuery.TASK_ID, 0));
            assertCode(LapiError.QUERY_TYPE, () -> c.senv(null, 0));
            assertCode(LapiError.QUERY_TYPE, () -> c.qenv(null));
        }
    }

    @Test
    void aBadConfigurationSaysWhatToSet() {
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withMaxUhdr(12)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxUhdr");
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withUhdrAlign(3)).hasMessageContaining("uhdrAlign");
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withPacketPayload(8)).hasMessageContaining("packetPayload");
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withCredits(0)).hasMessageContaining("credits");
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withCompletionThreads(0)).hasMessageContaining("completionThreads");
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withAddressTableSize(1)).hasMessageContaining("addressTableSize");
        assertThatThrownBy(() -> LapiConfig.DEFAULT.withMaxData(-1)).hasMessageContaining("maxData");
        assertThat(LapiConfig.DEFAULT.withUhdrAlign(4).withMaxUhdr(12).maxUhdr()).isEqualTo(12);
    }

    @Test
    @SuppressWarnings("nullness") // a null lapi_info_t on purpose
    void initWithoutAConfigIsInfoNull() throws Exception {
        Job job = Job.local(1);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try {
            Portals portals = Portals.create(job, endpoints.get(0));
            assertCode(LapiError.INFO_NULL, () -> LapiContext.init(portals, null));
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    private static void assertCode(LapiError code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LapiException.class,
                e -> assertThat(e.error()).isEqualTo(code));
    }
}
