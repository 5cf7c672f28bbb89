package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A program that finalises Portals under a live context (PtlFini, or a C program's exit without LAPI_Term) is told
 * so by the dispatcher's report, rather than that its event queue failed.
 */
class FinalisedUnderContextTest {

    @Test
    void theDispatchersReportSaysPortalsWasFinalisedBeforeTerm() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            job.libraries.get(0).fini();
            LapiJob.await(() -> !job.asyncErrors.isEmpty(), "the dispatcher's report");
            assertThat(job.asyncErrors).singleElement().asString()
                    .contains("(INT_ERR)")
                    .contains("Portals was finalised (PtlFini, PtlNIFini, or the process exiting) before LAPI_Term")
                    .doesNotContain("event queue failed");
        }
    }
}
