package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What a user and Maven Central look for before depending on the project: the Apache-2.0 LICENSE, the release
 * metadata (url, licenses, developers, scm) in the root pom that every module inherits, and a CHANGELOG in the
 * Keep a Changelog format.
 */
class ReleaseMetadataTest {
    private static final Set<String> CHANGE_KINDS = Set.of("Added", "Changed", "Deprecated", "Removed", "Fixed",
            "Security");

    @Test
    void licenseIsApache2() throws IOException {
        String license = Files.readString(Build.root().resolve("LICENSE"));
        assertThat(license).contains("Apache License", "Version 2.0, January 2004",
                "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", "END OF TERMS AND CONDITIONS");
    }

    @Test
    void rootPomCarriesTheReleaseMetadata() throws Exception {
        Element root = pom(Build.root().resolve("pom.xml"));
        assertThat(text(root, "url")).startsWith("https://");
        Element licenses = must(root, "licenses");
        assertThat(text(must(licenses, "license"), "name")).isEqualTo("Apache-2.0");
        must(must(root, "developers"), "developer");
        Element scm = must(root, "scm");
        assertThat(text(scm, "url")).isNotEmpty();
        assertThat(text(scm, "connection")).startsWith("scm:git:");
        assertThat(root.getAttribute("child.project.url.inherit.append.path"))
                .as("module urls must be the project's, not the project's with the module path appended")
                .isEqualTo("false");
    }

    /** Every module inherits the metadata: its parent chain reaches the root pom (the BOM has its own copy). */
    @Test
    void everyModuleInheritsFromTheRootPom() throws Exception {
        List<Path> modules = modules(Build.root());
        assertThat(modules).hasSizeGreaterThan(10);
        for (Path module : modules) {
            Element pom = pom(module.resolve("pom.xml"));
            @Nullable Element parent = child(pom, "parent");
            if (parent == null) {
                assertThat(text(pom, "artifactId")).as(module + " has no parent").isEqualTo("portals3j-bom");
                assertThat(text(must(pom, "licenses"), "license")).contains("Apache-2.0");
                must(pom, "scm");
                must(pom, "developers");
                continue;
            }
            assertThat(text(parent, "groupId")).as(module.toString()).isEqualTo("org.portals3j");
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

    private static List<Path> modules(Path dir) throws Exception {
        List<Path> found = new ArrayList<>();
        @Nullable Element modules = child(pom(dir.resolve("pom.xml")), "modules");
        if (modules == null) {
            return found;
        }
        for (Node n = modules.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("module")) {
                Path module = dir.resolve(String.valueOf(e.getTextContent()).trim()).normalize();
                found.add(module);
                found.addAll(modules(module));
            }
        }
        return found;
    }

    private static Element pom(Path file) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        return doc.getDocumentElement();
    }

    private static Element must(Element parent, String name) {
        @Nullable Element e = child(parent, name);
        if (e == null) {
            throw new AssertionError("<" + parent.getTagName() + "> has no <" + name + ">");
        }
        return e;
    }

    private static @Nullable Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static String text(Element parent, String name) {
        @Nullable Element e = child(parent, name);
        return e == null ? "" : String.valueOf(e.getTextContent()).trim();
    }
}
