package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The C headers users install and the kit's assertion catalogues they read in reports cite the published
 * documents, never our digests of them or our copies' file names (which users do not have).
 */
class InstalledCitationTest {

    /**
     * Any mention of a digest (these files have no hashing to speak of) and the file names of our copies of the
     * specs ({@code lapi-amsend.txt}, {@code portals-3.2.numbered.lyx}, ...).
     */
    static final Pattern OUR_DOCUMENTS = Pattern.compile("(?i)\\bdigest(?:s|'s|s'|ed)?\\b|-digest\\b"
            + "|\\bportals-3\\.2(?:\\.numbered)?\\.(?:md|lyx)\\b|\\bisotach-ironman\\.txt\\b|\\blapi-amsend\\.txt\\b");

    /** The catalogue the LAPI layer's owners rewrite on their own; SpecCitationTest still covers it. */
    private static final String LAPI_CATALOGUE = "lapi.tsv";

    @Test
    void noInstalledHeaderOrCatalogueCitesOurDigestsOrCopies() throws IOException {
        List<Path> files = userFacing();
        assertThat(files.stream().map(f -> String.valueOf(f.getFileName())).toList())
                .as("the files this check reads").contains("portals3.h", "lapi.h", "portals-3.2.tsv", "isotach.tsv");
        Path root = Build.root();
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = OUR_DOCUMENTS.matcher(lines.get(i));
                if (m.find()) {
                    found.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        assertThat(found).as("citations of our digests or copies of the specs in what users install or read; cite"
                + " the published document by name and section instead: \"Portals 3.2 spec §3.12\", \"Isotach"
                + " report §6.2.5, pp. 41-45\", \"LAPI_Amsend man page, Return Values\"; where we chose on an open"
                + " point, say \"our choice\" with the public document's section").isEmpty();
    }

    @Test
    void thePatternCatchesDigestsAndCopiesButNotTheDocumentsNames() {
        String d = "digest";
        for (String cited : List.of("(" + d + " 2.6)", "lapi-" + d + ".md section 2", "the " + d + "'s inference",
                "Line references are to portals-3.2.numbered.lyx", "see lapi-amsend.txt Return Values")) {
            assertThat(OUR_DOCUMENTS.matcher(cited).find()).as(cited).isTrue();
        }
        for (String published : List.of("Portals 3.2 spec §3.12", "Isotach report App. J, iso_send.c, pp. 212-217",
                "LAPI_Amsend man page, Role of the header handler")) {
            assertThat(OUR_DOCUMENTS.matcher(published).find()).as(published).isFalse();
        }
    }

    /** The C headers of native-shim's sources and the kit's catalogues but the LAPI one, outside build output. */
    private static List<Path> userFacing() throws IOException {
        Path root = Build.root();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> headers = Files.walk(root.resolve("native-shim"))) {
            headers.filter(p -> p.toString().endsWith(".h") && !isBuildOutput(root.relativize(p))).sorted()
                    .forEach(files::add);
        }
        try (Stream<Path> catalogues = Files.walk(root.resolve("tck/src/main/resources"))) {
            catalogues.filter(p -> p.toString().endsWith(".tsv")
                    && !String.valueOf(p.getFileName()).equals(LAPI_CATALOGUE)).sorted().forEach(files::add);
        }
        return files;
    }

    private static boolean isBuildOutput(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals("target")) {
                return true;
            }
        }
        return false;
    }
}
