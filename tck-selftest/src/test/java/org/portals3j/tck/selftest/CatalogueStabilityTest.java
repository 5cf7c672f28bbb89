package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;

/**
 * Assertion ids are stable across releases: every id ever published ({@code published-ids.tsv}) is still in
 * the catalogue and still rests on the same spec references. Rewording an assertion is fine; renumbering one,
 * or giving its id to another assertion, fails here. A new assertion gets the next free id, added to both.
 */
class CatalogueStabilityTest {

    @Test
    void everyPublishedIdStillNamesTheAssertionItNamedThen() throws IOException {
        Catalogue catalogue = Catalogue.builtIn();
        List<String> moved = new ArrayList<>();
        List<String> published = published();
        for (String row : published) {
            String[] f = row.split("\t");
            String refs = catalogue.find(f[0]).map(Assertion::refs).orElse("(missing)");
            if (!refs.equals(f[1])) {
                moved.add(f[0] + " rested on " + f[1] + ", now " + refs);
            }
        }
        assertThat(moved).as("published ids whose assertion moved or vanished (give new assertions new ids)").isEmpty();
        assertThat(published).as("every id in the catalogue is published").hasSize(catalogue.all().size());
    }

    private static List<String> published() throws IOException {
        try (InputStream in = CatalogueStabilityTest.class.getResourceAsStream("published-ids.tsv")) {
            if (in == null) {
                throw new AssertionError("published-ids.tsv is missing next to "
                        + CatalogueStabilityTest.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
    }
}
