package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.catalogue.CatalogueException;
import org.portals3j.tck.catalogue.Spec;
import org.portals3j.tck.catalogue.Testability;

/** The catalogue file format: what it accepts, and that every mistake is reported with file and line. */
class CatalogueFormatTest {
    private static final String HEADER = Catalogue.HEADER;

    @Test
    void parsesRowsSkippingCommentsAndKeepsEveryColumn() {
        Catalogue c = Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(
                "# a comment", HEADER,
                "P-001\tInitialisation\t3.1.1 PtlInit\t§3.3.1\tkit\tPtlInit succeeds.\t",
                "P-003\tInitialisation\t3.1.1 PtlInit\t§3.3.1.1\tno\tA NULL holder is refused.\t"
                        + "not applicable to Java"));
        assertThat(c.all()).extracting(Assertion::id).containsExactly("P-001", "P-003");
        Assertion a = c.find("P-003").orElseThrow();
        assertThat(a.testability()).isEqualTo(Testability.NO);
        assertThat(a.note()).isEqualTo("not applicable to Java");
        assertThat(a.specLocation())
                .isEqualTo("Portals 3.2 §3.1.1 PtlInit: The Portals 3.2 Message Passing Interface, Revision 1.1"
                        + " §3.3.1.1");
        assertThat(c.areas(Spec.PORTALS)).containsExactly("Initialisation");
    }

    @Test
    void aPortals33RowIsLocatedInItsOwnSourcesNotInThe32Text() {
        Catalogue c = Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(HEADER,
                "P-275\tPortals 3.3 dialect\tPortals 3.3 §3.10 PtlMDAttach\tportals3ib p3lib/md.c\tkit\t"
                + "No unlink_nofit.\t"));
        assertThat(c.find("P-275").orElseThrow().specLocation())
                .isEqualTo("Portals 3.3 §3.10 PtlMDAttach, portals3ib p3lib/md.c");
    }

    @Test
    void aLapiRowIsLocatedInTheManPages() {
        Catalogue c = Catalogue.parse(Spec.LAPI, "t.tsv", List.of(HEADER,
                "L-012\tError codes\tLAPI_Amsend, Parameters: uhdr_len\tLAPI_Amsend, Parameters: uhdr_len; our choice"
                + " O-01 (package org.portals3j.lapi)\tkit\tuhdr_len 12 is refused.\t"));
        assertThat(c.find("L-012").orElseThrow().specLocation())
                .isEqualTo("LAPI: LAPI_Amsend, Parameters: uhdr_len; our choice O-01 (package org.portals3j.lapi)");
    }

    @Test
    void aMissingHeaderIsReportedWithItsLine() {
        assertThatThrownBy(() -> Catalogue.parse(Spec.PORTALS, "t.tsv", List.of("# c", "P-001\ta\tb\tc\tkit\td\t")))
                .isInstanceOf(CatalogueException.class).hasMessageStartingWith("t.tsv:2: ")
                .hasMessageContaining("header");
    }

    @Test
    void aRowWithTooFewFieldsIsReported() {
        assertThatThrownBy(() -> Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(HEADER, "P-001\ta\tb\tkit")))
                .isInstanceOf(CatalogueException.class).hasMessage("t.tsv:2: expected 7 tab-separated fields, found 4");
    }

    @Test
    void idsMustBelongToTheSpecAndRunInOrderWithoutRepeats() {
        assertThatThrownBy(() -> Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(HEADER, "I-001\ta\tb\tc\tkit\td\t")))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("not a Portals 3.2 id");
        assertThatThrownBy(() -> Catalogue.parse(Spec.ISOTACH, "t.tsv", List.of(HEADER,
                "I-002\ta\tb\tc\tkit\td\t", "I-002\ta\tb\tc\tkit\td\t")))
                .isInstanceOf(CatalogueException.class)
                .hasMessageStartingWith("t.tsv:3: I-002 is out of order or repeated");
    }

    @Test
    void testabilityIsOneOfThreeWordsAndUntestedOnesNeedANote() {
        assertThatThrownBy(() -> Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(HEADER, "P-001\ta\tb\tc\tmaybe\td\t")))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("kit, partial, engine or no");
        assertThatThrownBy(() -> Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(HEADER, "P-001\ta\tb\tc\tengine\td\t")))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("the note must say");
    }

    @Test
    void emptyOrPaddedFieldsAreRefused() {
        assertThatThrownBy(() -> Catalogue.parse(Spec.PORTALS, "t.tsv", List.of(HEADER, "P-001\t a\tb\tc\tkit\td\t")))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("area is empty or has spaces");
    }
}
