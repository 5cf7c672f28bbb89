package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A program that finalises Portals under a live context (PtlFini, or a C program's exit without LAPI_Term) is told
 * so by the wait that fails, rather than that its event queue failed.
 */
class FinalisedUnderContextTest {

    @Test
    void aWaitAfterPtlFiniSaysPortalsWasFinalisedBeforeTerm() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiCounter never = job.task(0).newCounter();
            job.libraries.get(0).fini();
            assertThatThrownBy(() -> job.task(0).waitcntr(never, 1))
                    .isInstanceOf(LapiException.class)
                    .hasMessageContaining("LAPI_Waitcntr: Portals was finalised (PtlFini, PtlNIFini, or the process"
                            + " exiting) before LAPI_Term")
                    .extracting(e -> ((LapiException) e).error()).isEqualTo(LapiError.UNKNOWN);
        }
    }
}
