package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The BOM (bom/pom.xml) lists exactly the published modules (the jar modules `mvn -Prelease deploy` deploys), at the
 * reactor's version, and everything the README's dependency block names; each of them has the sources and javadoc
 * jars Maven Central requires beside every jar (a pom-packaging pom needs neither).
 */
class BomTest {
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");

    @Test
    void bomListsEveryPublishedModuleAndTheReadmesDependencies() throws Exception {
        String bom = Files.readString(Build.root().resolve("bom/pom.xml"));
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"), bom.indexOf("</dependencyManagement>"));
        Set<String> listed = artifacts(managed);
        String version = Poms.text(Poms.root().xml(), "version");
        assertThat(bom).contains("<version>" + version + "</version>");

        Set<String> published = new TreeSet<>();
        for (Poms.Pom pom : published()) {
            published.add(pom.artifactId());
        }
        assertThat(published).contains("portals-api", "transport-udp", "lapi", "mpi", "isotach-core", "native-gm");
        assertThat(listed).as("the BOM lists every published module; set maven.deploy.skip to true in a module"
                + " that is not for users").isEqualTo(published);

        String readme = String.join("\n", Readme.block("## Depend on it", "xml"));
        assertThat(readme).contains("<artifactId>portals3j-bom</artifactId>", "<scope>import</scope>",
                "<version>" + version + "</version>");
        Set<String> used = artifacts(readme.substring(readme.indexOf("</dependencyManagement>")));
        assertThat(used).contains("portals-api");
        assertThat(listed).as("the README's dependencies are in the BOM").containsAll(used);
    }

    /**
     * The release profile attaches a sources and a javadoc jar to every published module: the root pom's source and
     * javadoc plugins where the module turns them on (maven.source.skip and maven.javadoc.skip false), else jars
     * with those classifiers that the module's own release profile builds (native-gm: C sources and headers).
     */
    @Test
    void everyPublishedJarGetsASourcesAndAJavadocJar() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Poms.Pom pom : published()) {
            List<String> attached = pom.classifiersOfProfile("release");
            if (!"false".equals(pom.property("maven.source.skip")) && !attached.contains("sources")) {
                missing.add(pom.artifactId() + "-sources.jar");
            }
            if (!"false".equals(pom.property("maven.javadoc.skip")) && !attached.contains("javadoc")) {
                missing.add(pom.artifactId() + "-javadoc.jar");
            }
        }
        assertThat(missing).as("Maven Central needs a sources and a javadoc jar beside every jar: set"
                + " maven.source.skip and maven.javadoc.skip to false, or attach jars with those classifiers in the"
                + " module's release profile").isEmpty();
    }

    /** After `mvn -Prelease install` (which sets portals3j.release), the jars are there and not empty. */
    @Test
    void aReleaseBuildLeavesTheSourcesAndJavadocJarsBesideEveryPublishedJar() throws Exception {
        assumeTrue(Boolean.getBoolean("portals3j.release"), "only in a build with -Prelease, which makes the jars");
        String version = Poms.text(Poms.root().xml(), "version");
        for (Poms.Pom pom : published()) {
            Path target = Build.root().resolve(pom.folder()).resolve("target");
            for (String classifier : List.of("sources", "javadoc")) {
                Path jar = target.resolve(pom.artifactId() + "-" + version + "-" + classifier + ".jar");
                assertThat(jar).as("the release build's " + classifier + " jar of " + pom.folder()).isRegularFile();
                try (ZipFile zip = new ZipFile(jar.toFile())) {
                    assertThat(zip.stream().filter(e -> !e.isDirectory() && !e.getName().startsWith("META-INF/")))
                            .as(jar + " has content").isNotEmpty();
                }
            }
        }
    }

    /** Every module of the build that deploys something: its packaging is jar and it does not skip deploy. */
    private static List<Poms.Pom> published() throws Exception {
        List<Poms.Pom> published = new ArrayList<>();
        for (Poms.Pom pom : Poms.all()) {
            boolean deploys = !"true".equals(pom.property("maven.deploy.skip"));
            if (deploys && pom.packaging().equals("jar")) {
                published.add(pom);
            }
        }
        return published;
    }

    private static Set<String> artifacts(String xml) {
        Set<String> found = new TreeSet<>();
        Matcher m = ARTIFACT.matcher(xml);
        while (m.find()) {
            @Nullable String g = m.group(1);
            if (g != null) {
                found.add(g);
            }
        }
        return found;
    }
}
