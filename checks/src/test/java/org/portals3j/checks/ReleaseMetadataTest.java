package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * What a user and Maven Central look for before depending on the project: the Apache-2.0 LICENSE, the release
 * metadata (url, licenses, developers, scm) in the root pom that every module inherits, and a CHANGELOG in the
 * Keep a Changelog format.
 */
class ReleaseMetadataTest {
    private static final Set<String> CHANGE_KINDS = Set.of("Added", "Changed", "Deprecated", "Removed", "Fixed",
            "Security");
    /** The project's address: the root pom's property, which every url and scm of the build names. */
    private static final String URL = "${portals3j.url}";

    @Test
    void licenseIsApache2() throws IOException {
        String license = Files.readString(Build.root().resolve("LICENSE"));
        assertThat(license).contains("Apache License", "Version 2.0, January 2004",
                "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", "END OF TERMS AND CONDITIONS");
    }

    @Test
    void rootPomCarriesTheReleaseMetadata() throws Exception {
        Element root = Poms.root().xml();
        assertThat(text(root, "url")).isEqualTo(URL);
        Element licenses = must(root, "licenses");
        assertThat(text(must(licenses, "license"), "name")).isEqualTo("Apache-2.0");
        must(must(root, "developers"), "developer");
        assertScmIsTheProjectUrl(root);
        assertThat(root.getAttribute("child.project.url.inherit.append.path"))
                .as("module urls must be the project's, not the project's with the module path appended")
                .isEqualTo("false");
    }

    /**
     * The project's address is one property, portals3j.url: empty until the project has a public repository, then
     * an https address. The BOM, which has no parent, carries the same value; the README tells a publisher to set
     * it, and the release profile refuses to sign a build without it.
     */
    @Test
    void theProjectAddressIsOnePropertyAPublisherSets() throws Exception {
        Poms.Pom root = Poms.root();
        @Nullable String url = root.property("portals3j.url");
        if (url == null) {
            throw new AssertionError("the root pom has no property portals3j.url");
        }
        assertThat(url).as("portals3j.url: empty, or the project's public repository").matches("|https://\\S+");
        Poms.Pom bom = Poms.all().stream().filter(p -> p.artifactId().equals("portals3j-bom")).findFirst()
                .orElseThrow();
        assertThat(String.valueOf(bom.property("portals3j.url"))).as("bom/pom.xml's portals3j.url, the root pom's")
                .isEqualTo(url);
        assertThat(text(bom.xml(), "url")).isEqualTo(URL);
        assertScmIsTheProjectUrl(bom.xml());

        String pom = Files.readString(Build.root().resolve("pom.xml"));
        assertThat(pom).contains("<requireProperty>", "<property>portals3j.url</property>");
        String readme = Files.readString(Build.root().resolve("README.md"));
        int from = readme.indexOf("\n### Publishing a release\n");
        assertThat(from).as("README.md has a section '### Publishing a release'").isNotNegative();
        assertThat(readme.substring(from)).contains("portals3j.url", "bom/pom.xml", "mvn -Prelease deploy");
    }

    /** Every module inherits the metadata: its parent chain reaches the root pom and it sets no url or scm. */
    @Test
    void everyModuleInheritsFromTheRootPom() throws Exception {
        List<Poms.Pom> poms = Poms.all();
        assertThat(poms).hasSizeGreaterThan(10);
        for (Poms.Pom pom : poms.subList(1, poms.size())) {
            if (pom.artifactId().equals("portals3j-bom")) {
                assertThat(pom.parent()).as("the BOM has no parent").isNull();
                assertThat(text(must(pom.xml(), "licenses"), "license")).contains("Apache-2.0");
                must(pom.xml(), "developers");
                continue;
            }
            Poms.Pom top = pom;
            for (Poms.@Nullable Pom up = pom.parent(); up != null; up = up.parent()) {
                top = up;
            }
            assertThat(top.folder()).as(pom.folder() + "'s parent chain ends at the root pom").isEmpty();
            assertThat(Poms.child(pom.xml(), "url")).as(pom.folder() + " sets its own url").isNull();
            assertThat(Poms.child(pom.xml(), "scm")).as(pom.folder() + " sets its own scm").isNull();
        }
    }

    @Test
    void changelogFollowsKeepAChangelog() throws IOException {
        List<String> lines = Files.readAllLines(Build.root().resolve("CHANGELOG.md"));
        assertThat(lines.get(0)).isEqualTo("# Changelog");
        assertThat(String.join("\n", lines)).contains("https://keepachangelog.com/").contains("## [Unreleased]");
        for (String line : lines) {
            if (line.startsWith("## ")) {
                assertThat(line).as("a release heading").matches("## \\[(Unreleased|\\d+\\.\\d+\\.\\d+)\\]( - .*)?");
            } else if (line.startsWith("### ")) {
                assertThat(CHANGE_KINDS).as("a Keep a Changelog change type").contains(line.substring(4));
            }
        }
        assertThat(lines).anyMatch(l -> l.contains("**Portals 3.2**")).anyMatch(l -> l.contains("**MPI**"));
    }

    private static void assertScmIsTheProjectUrl(Element pom) {
        Element scm = must(pom, "scm");
        assertThat(text(scm, "url")).isEqualTo(URL);
        assertThat(text(scm, "connection")).isEqualTo("scm:git:" + URL);
        assertThat(text(scm, "developerConnection")).isEqualTo("scm:git:" + URL);
    }

    private static Element must(Element parent, String name) {
        return Poms.must(parent, name);
    }

    private static String text(Element parent, String name) {
        return Poms.text(parent, name);
    }
}
