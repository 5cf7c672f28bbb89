package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Spec references are ones a user can follow: no source, doc or catalogue file of the build cites a spec by
 * the line numbers of a local copy (users have the published documents, not our copies), no main source or doc,
 * nor the LAPI layer's tests and catalogue, cites our digests of the specs, the LAPI catalogue's sources are man
 * page sections and the layer's documented choices, and no file names a folder of a build machine.
 */
class SpecCitationTest {

    /** An L-number citation ("L" and 3 to 5 digits, alone or after a tab escape); ids like L-021 do not match. */
    private static final Pattern LINE_CITATION =
            Pattern.compile("(?<![A-Za-z0-9_])L\\d{3,5}(?![0-9])|\\\\tL\\d{3,5}(?![0-9])|\\blines? \\d{3,5}\\b");

    /**
     * A citation of our digests of the specs, which users do not have: a digest file ({@code lapi-digest.md}), a
     * section or item of one ("digest §2.7", "digest A16", "§8.1 of the digest", "the digests' §7"). A digest in the
     * hashing sense ("the digest (SHA-256)", {@code MessageDigest}) is not one.
     */
    private static final Pattern DIGEST_CITATION = Pattern.compile("\\b\\w+(?:[-.]\\w+)*-digest(?:\\.md)?\\b"
            + "|\\bdigest(?:'s|s')?\\s+(?:§|&sect;|[AOLIPG]-?\\d|\\d|section|item|recommend)"
            + "|§\\d+(?:\\.\\d+)*\\s+of\\s+the\\s+digest"
            + "|\\bthe\\s+digests?(?:'s|')?\\s+(?:§|&sect;|section|assertions|names|recommends|describes|rewrites)"
            + "|\\bdigested\\s+in\\b|\\(digest\\b|\\bdigest\\s*$");

    /** The catalogue of the LAPI assertions. */
    private static final String LAPI_CATALOGUE = "tck/src/main/resources/org/portals3j/tck/catalogue/lapi.tsv";

    /**
     * A citation of a LAPI man page: a section of LAPI_Amsend's (its headings; the Description's parts after
     * "Description: "), with a parameter, return value or flag after ": " or in brackets, or another call's whole
     * man page.
     */
    private static final Pattern MAN_PAGE = Pattern.compile("LAPI_Amsend, (?:Purpose|C Syntax|Description"
            + "|Description: (?:User details|Role of the header handler|Inline execution of completion handlers)"
            + "|Parameters|Return Values|C Examples)(?:: [\\w, ]+| \\(\\w+\\))?"
            + "|LAPI_\\w+(?:, LAPI_\\w+)* man pages?(?:: \\w+)?");

    /** One of the layer's choices, where the man pages are open: by its id, or by what it is about. */
    private static final Pattern OUR_CHOICE = Pattern.compile("our choices? (?:O-\\d\\d(?:, O-\\d\\d)*"
            + " \\(package org\\.portals3j\\.lapi\\)|\\([^()]+\\))");

    /** A home or work folder of a build machine. */
    private static final Pattern MACHINE_PATH = Pattern.compile("(?<![\\w.])/(?:work|home|Users|root)/\\w");

    private static final Set<String> TEXT = Set.of("java", "c", "h", "md", "tsv", "txt", "xml", "properties", "cfg",
            "sh", "css", "html", "py", "yml", "yaml", "json", "in", "pc", "mk", "3");

    private static final String HOW = "cite the published document by section, and page where it has pages:"
            + " \"Isotach report §3.3.3, pp. 10-14\" (the report's sections and its table of contents' pages),"
            + " \"Portals 3.2 spec §3.8.1\" (the Portals 3.2 document has no page numbers); Appendix J of the"
            + " Isotach report as \"Isotach report App. J, iom.c, pp. 255-261\"";

    @Test
    void noFileCitesASpecByLineNumbers() throws IOException {
        assertThat(offences(LINE_CITATION))
                .as("citations by line numbers of a local spec copy; instead, " + HOW)
                .isEmpty();
    }

    @Test
    void noMainSourceOrDocCitesOurDigestsOfTheSpecs() throws IOException {
        assertThat(offences(DIGEST_CITATION, p -> isMainSourceOrDoc(p) || isLapiCatalogueOrTest(p)))
                .as("citations of our digests, which users do not have; instead, " + HOW + "; the LAPI man pages by"
                        + " name and section (\"LAPI_Amsend man page, Return values\"); MPI by standard and section"
                        + " (\"MPI 3.1 §4.1.11\"); where we chose on an open point, \"our choice (open point: ...)\""
                        + " with the public document's section")
                .isEmpty();
    }

    /**
     * The LAPI catalogue's 'section' is a man page section and its 'refs' are man page sections or the layer's
     * choices (listed in its package documentation): what a user can look up.
     */
    @Test
    void theLapiCatalogueCitesTheManPagesAndTheLayersChoices() throws IOException {
        List<String> wrong = new ArrayList<>();
        int rows = 0;
        boolean header = true;
        for (String line : Files.readAllLines(Build.root().resolve(LAPI_CATALOGUE), StandardCharsets.UTF_8)) {
            if (line.startsWith("#") || line.isEmpty()) {
                continue;
            }
            if (header) {
                header = false;
                continue;
            }
            rows++;
            String[] f = line.split("\t", -1);
            String id = f[0];
            List<String> refs = List.of(f[3].split("; "));
            if (!MAN_PAGE.matcher(f[2]).matches()) {
                wrong.add(id + " section: " + f[2]);
            }
            if (!refs.get(0).equals(f[2])) {
                wrong.add(id + " refs do not begin with the section: " + f[3]);
            }
            for (String ref : refs) {
                if (!MAN_PAGE.matcher(ref).matches() && !OUR_CHOICE.matcher(ref).matches()) {
                    wrong.add(id + " ref: " + ref);
                }
            }
        }
        assertThat(rows).isGreaterThanOrEqualTo(104);
        assertThat(wrong).as("LAPI catalogue citations; a section is \"LAPI_Amsend, <man page section>[: <name>]\""
                + " or \"<call> man page\", a ref one of those or \"our choice O-nn (package org.portals3j.lapi)\"")
                .isEmpty();
    }

    @Test
    void noFileNamesAFolderOfABuildMachine() throws IOException {
        assertThat(offences(MACHINE_PATH))
                .as("absolute paths of a build machine; name the document (or a path relative to the repository)"
                        + " instead")
                .isEmpty();
    }

    @Test
    void thePatternsCatchWhatTheyAreFor() {
        String l = "L";
        assertThat(LINE_CITATION.matcher("(" + l + "2372, C " + l + "10779-10810)").find()).isTrue();
        assertThat(LINE_CITATION.matcher("\"P-001\\t" + l + "2629\\tkit\"").find()).isTrue();
        assertThat(LINE_CITATION.matcher("see lines " + "120-130").find()).isTrue();
        assertThat(LINE_CITATION.matcher("assertions L-021, A-19 and P-226; L1 cache").find()).isFalse();
        assertThat(MACHINE_PATH.matcher("in /" + "work/shared/specs").find()).isTrue();
        assertThat(MACHINE_PATH.matcher("the tests' /tmp/tck and src/main/work/x").find()).isFalse();
        String d = "digest";
        for (String cited : List.of("(lapi-" + d + ".md O-05)", "Isotach " + d + " §2.7", "(" + d + " A16)",
                "§8.1 of the " + d + ": PtlInit", "the " + d + "s' §7", "the " + d + "'s section 2",
                "as the " + d + " recommends", "as " + d + "ed in", "ends (" + d, "isotach-" + d)) {
            assertThat(DIGEST_CITATION.matcher(cited).find()).as(cited).isTrue();
        }
        for (String cited : List.of("LAPI_Amsend, Parameters: uhdr_len", "LAPI_Amsend, Return Values",
                "LAPI_Amsend, Description: Role of the header handler (ret_flags)", "LAPI_Fence, LAPI_Gfence man pages",
                "LAPI_Init man page: num_compl_hndlr_thr")) {
            assertThat(MAN_PAGE.matcher(cited).matches()).as(cited).isTrue();
        }
        for (String notOne : List.of("1.9 Return values", "lapi-amsend.txt Return Values", "LAPI_Amsend, Usage",
                d + " O-01", "LAPI_Qenv man page (outside)")) {
            assertThat(MAN_PAGE.matcher(notOne).matches() || OUR_CHOICE.matcher(notOne).matches()).as(notOne)
                    .isFalse();
        }
        assertThat(OUR_CHOICE.matcher("our choices O-01, O-02 (package org.portals3j.lapi)").matches()).isTrue();
        for (String hashing : List.of("MessageDigest.isEqual(a, b)", "resets the " + d + " for the next datagram",
                "The " + d + " (SHA-256) is what travels", "order " + d + " %016x", "all " + d + "s agree.")) {
            assertThat(DIGEST_CITATION.matcher(hashing).find()).as(hashing).isFalse();
        }
    }

    /** "file:line: text" for every match of {@code pattern} in the text files of the build, outside build output. */
    private static List<String> offences(Pattern pattern) throws IOException {
        return offences(pattern, relative -> true);
    }

    /** {@link #offences(Pattern)} in the text files whose path relative to the root {@code which} accepts. */
    private static List<String> offences(Pattern pattern, Predicate<Path> which) throws IOException {
        Path root = Build.root();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> isSource(root, p) && which.test(root.relativize(p))).sorted()
                    .toList()) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                } catch (CharacterCodingException e) {
                    continue; // not text
                }
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = pattern.matcher(lines.get(i));
                    if (m.find()) {
                        found.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        return found;
    }

    /** A file of the LAPI layer (its tests too), the LAPI catalogue, or the C API's LAPI header and tests. */
    private static boolean isLapiCatalogueOrTest(Path relative) {
        String path = relative.toString();
        return path.equals(LAPI_CATALOGUE) || path.startsWith("layers/lapi/")
                || path.startsWith("native-shim/src/test/c/lapi") || path.startsWith("native-shim/src/main/c/lapi");
    }

    /** A Java file outside {@code src/test}, or a Markdown document: what users read as the code's documentation. */
    private static boolean isMainSourceOrDoc(Path relative) {
        String name = String.valueOf(relative.getFileName());
        if (name.endsWith(".md")) {
            return true;
        }
        String previous = "";
        for (Path part : relative) {
            if (previous.equals("src") && part.toString().equals("test")) {
                return false;
            }
            previous = part.toString();
        }
        return name.endsWith(".java");
    }

    private static boolean isSource(Path root, Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        for (Path part : root.relativize(file)) {
            String name = part.toString();
            boolean hidden = name.startsWith(".") && !Set.of(".github", ".ci", ".mvn").contains(name);
            if (hidden || name.equals("target") || name.equals("build") || name.equals("node_modules")) {
                return false;
            }
        }
        String name = String.valueOf(file.getFileName());
        int dot = name.lastIndexOf('.');
        return name.equals("Makefile") || dot > 0 && TEXT.contains(name.substring(dot + 1));
    }
}
