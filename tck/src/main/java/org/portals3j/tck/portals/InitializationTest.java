package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.tck.SpecAssertion;

/** PtlInit and PtlFini (Portals 3.2 spec §3.2.7 to §3.3.2). */
@DisplayName("PtlInit / PtlFini")
class InitializationTest {

    @Test
    @SpecAssertion("P-001")
    void initReturnsAtLeastOneInterface() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            assertThat(job.rank(0).ptl().init()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-002")
    void initMayBeCalledRepeatedly() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals ptl = job.rank(0).ptl();
            int first = ptl.init();
            assertThat(ptl.init()).isEqualTo(first);
            assertThat(ptl.init()).isEqualTo(first);
            assertThat(ptl.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle()).isNotNull();
        }
    }

    @Test
    @SpecAssertion("P-006")
    void finiAfterInitCompletes() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals ptl = job.rank(0).ptl();
            ptl.init();
            assertThatCode(ptl::fini).doesNotThrowAnyException();
        }
    }
}
