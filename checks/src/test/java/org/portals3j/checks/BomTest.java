package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The BOM (bom/pom.xml) lists what users depend on: every published module (a jar module that builds its javadoc,
 * by setting maven.javadoc.skip to false), at the reactor's version, and everything the README's dependency block
 * names.
 */
class BomTest {
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");

    @Test
    void bomListsEveryPublishedModuleAndTheReadmesDependencies() throws Exception {
        String bom = Files.readString(Build.root().resolve("bom/pom.xml"));
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"), bom.indexOf("</dependencyManagement>"));
        Set<String> listed = artifacts(managed);
        assertThat(bom).contains("<version>" + rootVersion() + "</version>");

        Set<String> published = new TreeSet<>();
        Set<String> modules = new TreeSet<>();
        for (Path pom : poms()) {
            String text = Files.readString(pom);
            String own = ownArtifactId(text);
            modules.add(own);
            // a parent pom (transports, layers) turns javadoc on for its modules, and is itself no library
            if (text.contains("<maven.javadoc.skip>false</maven.javadoc.skip>")
                    && !text.contains("<packaging>pom</packaging>")) {
                published.add(own);
            }
        }
        assertThat(published).contains("portals-api", "transport-udp", "lapi", "mpi", "isotach-core");
        assertThat(listed).as("the BOM lists every published module").containsAll(published);
        assertThat(modules).as("the BOM lists only modules of the build").containsAll(listed);

        String readme = String.join("\n", Readme.block("## Depend on it", "xml"));
        assertThat(readme).contains("<artifactId>portals3j-bom</artifactId>", "<scope>import</scope>",
                "<version>" + rootVersion() + "</version>");
        Set<String> used = artifacts(readme.substring(readme.indexOf("</dependencyManagement>")));
        assertThat(used).contains("portals-api");
        assertThat(listed).as("the README's dependencies are in the BOM").containsAll(used);
    }

    private static String rootVersion() throws Exception {
        String root = Files.readString(Build.root().resolve("pom.xml"));
        Matcher m = Pattern.compile("<artifactId>portals3j</artifactId>\\s*<version>([^<]+)</version>").matcher(root);
        assertThat(m.find()).isTrue();
        return group(m);
    }

    /** The module's own artifactId: the first one after its parent block. */
    private static String ownArtifactId(String pom) {
        int from = pom.contains("</parent>") ? pom.indexOf("</parent>") : 0;
        Matcher m = ARTIFACT.matcher(pom);
        assertThat(m.find(from)).isTrue();
        return group(m);
    }

    private static String group(Matcher m) {
        @Nullable String g = m.group(1);
        if (g == null) {
            throw new AssertionError("no text in " + m.group());
        }
        return g;
    }

    private static Set<String> artifacts(String xml) {
        Set<String> found = new TreeSet<>();
        Matcher m = ARTIFACT.matcher(xml);
        while (m.find()) {
            found.add(group(m));
        }
        return found;
    }

    private static List<Path> poms() throws Exception {
        List<Path> poms = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Build.root(), 4)) {
            files.filter(f -> f.toFile().getName().equals("pom.xml"))
                    .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/src/"))
                    .forEach(poms::add);
        }
        return poms;
    }
}
