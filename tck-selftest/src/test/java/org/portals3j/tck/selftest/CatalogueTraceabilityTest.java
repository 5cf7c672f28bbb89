package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.Resolves;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.catalogue.Spec;
import org.portals3j.tck.catalogue.Testability;
import org.portals3j.tck.runner.KitTest;
import org.portals3j.tck.runner.TckRunner;

/**
 * The kit is traced to the catalogue both ways, and this test is what makes the build fail when it is not:
 * every assertion the kit checks ({@code kit}, or {@code partial}: only in part) has at least one test of the kit, and
 * every id a test names is in
 * the catalogue. The catalogue covers every assertion of the Portals and Isotach digests' §8 and of the LAPI
 * digest's §4, with no gap in the ids.
 */
class CatalogueTraceabilityTest {
    private static Catalogue catalogue = Catalogue.builtIn();
    private static List<KitTest> kit = List.of();

    @BeforeAll
    static void discoverTheKit() {
        kit = TckRunner.builder().build().discover();
    }

    @Test
    void theCatalogueHasEveryAssertionOfEverySpecWithContiguousIds() {
        // The first catalogues had P-001..P-271, I-001..I-145 and L-001..L-104; the kit may add assertions after
        // them.
        assertThat(ids(Spec.PORTALS)).hasSizeGreaterThanOrEqualTo(271).first().isEqualTo("P-001");
        assertThat(ids(Spec.ISOTACH)).hasSizeGreaterThanOrEqualTo(145).first().isEqualTo("I-001");
        assertThat(ids(Spec.LAPI)).hasSizeGreaterThanOrEqualTo(104).first().isEqualTo("L-001");
        for (Spec spec : Spec.values()) {
            List<String> ids = ids(spec);
            for (int i = 0; i < ids.size(); i++) {
                assertThat(ids.get(i)).as("ids of %s run without gaps", spec.title())
                        .isEqualTo(String.format("%s-%03d", spec.prefix(), i + 1));
            }
        }
    }

    @Test
    void everyIdATestNamesIsInTheCatalogue() {
        Map<String, Set<String>> unknown = new TreeMap<>();
        for (KitTest t : kit) {
            for (String id : t.assertionIds()) {
                if (catalogue.find(id).isEmpty()) {
                    unknown.computeIfAbsent(id, k -> new TreeSet<>()).add(t.shortName());
                }
            }
        }
        assertThat(unknown).as("@SpecAssertion ids that are not in the catalogue (id -> tests)").isEmpty();
    }

    /** A test pins down an assertion, or the resolution of an open point of a spec ({@code @Resolves}). */
    @Test
    void everyTestOfTheKitNamesAnAssertionOrAResolution() throws Exception {
        assertThat(kit).as("the kit was discovered").hasSizeGreaterThan(300);
        List<String> untraced = new ArrayList<>();
        for (KitTest t : kit) {
            if (t.assertionIds().isEmpty() && !resolves(t)) {
                untraced.add(t.shortName());
            }
        }
        assertThat(untraced).as("tests with neither @SpecAssertion nor @Resolves").isEmpty();
    }

    private static boolean resolves(KitTest t) throws Exception {
        Class<?> c = Class.forName(t.className());
        return c.isAnnotationPresent(Resolves.class) || Arrays.stream(c.getDeclaredMethods())
                .anyMatch(m -> m.getName().equals(t.methodName()) && m.isAnnotationPresent(Resolves.class));
    }

    @Test
    void everyKitTestableAssertionHasATestAndNoOtherOneHas() {
        Set<String> tested = kit.stream().flatMap(t -> t.assertionIds().stream()).collect(Collectors.toSet());
        List<String> untested = catalogue.all().stream()
                .filter(a -> a.testability().byKit() && !tested.contains(a.id())).map(Assertion::id).toList();
        assertThat(untested).as("assertions marked 'kit' or 'partial' in the catalogue that no test of the kit names")
                .isEmpty();
        List<String> mislabelled = catalogue.all().stream()
                .filter(a -> !a.testability().byKit() && tested.contains(a.id())).map(Assertion::id).toList();
        assertThat(mislabelled).as("assertions marked 'engine' or 'no' that a kit test names: mark them 'kit'")
                .isEmpty();
    }

    /**
     * The kit's claims are no larger than what it sees: a row marked {@code kit} whose note says part of the
     * assertion is internal or checked white-box is marked {@code partial} instead, so that no report shows it as
     * a plain pass.
     */
    @Test
    void aKitRowWhoseNoteSaysTheKitSeesOnlyPartOfItIsMarkedPartial() {
        Pattern onlyPart = Pattern.compile(
                "internal|indirectly|white-box|cannot be seen|cannot see|half only|not visible|only in part|kit does "
                + "not see", Pattern.CASE_INSENSITIVE);
        List<String> overclaimed = catalogue.all().stream()
                .filter(a -> a.testability() == Testability.KIT && onlyPart.matcher(a.note()).find())
                .map(a -> a.id() + ": " + a.note()).toList();
        assertThat(overclaimed).as("rows marked 'kit' whose note says the kit sees only part: mark them 'partial'")
                .isEmpty();
    }

    private static List<String> ids(Spec spec) {
        return catalogue.of(spec).stream().map(Assertion::id).toList();
    }
}
