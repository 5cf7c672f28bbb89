package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The API site (the root pom's api-site execution, built by {@code ./portals docs}) documents exactly the published
 * modules, its overview links the four spec tables, and the README says how to build it and where it lands.
 */
class ApiSiteTest {
    @Test
    void siteHasEveryPublishedModuleAndNoOther() throws Exception {
        String root = Files.readString(Build.root().resolve("pom.xml"));
        Set<String> skipped = new TreeSet<>(List.of(match(root, "<skippedModules>([^<]+)</skippedModules>")
                .split(",")));
        String script = Files.readString(Build.root().resolve("portals"));
        Set<String> compiled = new TreeSet<>(List.of(match(script, "PUBLISHED_MODULES=\"([^\"]+)\"").split(",")));

        Set<String> all = new TreeSet<>();
        Set<String> unpublished = new TreeSet<>();
        Set<String> published = new TreeSet<>();
        Set<String> publishedFolders = new TreeSet<>();
        for (Poms.Pom pom : Poms.all()) {
            all.add(pom.artifactId());
            if (pom.packaging().equals("pom")) {
                continue;
            }
            if ("false".equals(pom.property("maven.javadoc.skip"))) {
                published.add(pom.artifactId());
                publishedFolders.add(pom.folder());
            } else {
                unpublished.add(pom.artifactId());
            }
        }
        assertThat(published).contains("portals-api", "isotach-core", "transport-spi", "lapi", "mpi");
        assertThat(skipped).as("skippedModules leaves out every unpublished module").containsAll(unpublished);
        assertThat(skipped).as("skippedModules keeps every published module").doesNotContainAnyElementsOf(published);
        assertThat(all).as("skippedModules names modules of the build").containsAll(skipped);
        assertThat(compiled).as("./portals docs compiles the published modules").isEqualTo(publishedFolders);
    }

    @Test
    void overviewLinksTheFourSpecTables() throws Exception {
        String overview = Files.readString(Build.root().resolve("docs/api/overview.html"));
        assertThat(overview).contains("{@linkplain org.portals3j.portals##spec-function-java-method-heading ",
                "{@linkplain org.portals3j.isotach.IsotachNet ",
                "{@linkplain org.portals3j.lapi##lapi-function-java-method-heading ",
                "{@linkplain mpi##api-area-java-classes-heading ");
        assertThat(Files.readString(Build.root().resolve("pom.xml")))
                .contains("<overview>${project.basedir}/docs/api/overview.html</overview>");
    }

    @Test
    void readmeSaysHowToBuildTheSiteAndWhereItLands() throws Exception {
        String readme = Files.readString(Build.root().resolve("README.md"));
        int from = readme.indexOf("\n## Depend on it\n");
        assertThat(from).as("README.md has a section '## Depend on it'").isNotNegative();
        int to = readme.indexOf("\n## ", from + 1);
        String section = readme.substring(from, to < 0 ? readme.length() : to);
        assertThat(section).contains("`./portals docs`", "target/site/apidocs/index.html");

        assertThat(Files.readString(Build.root().resolve("pom.xml")))
                .contains("<outputDirectory>${project.build.directory}/site</outputDirectory>");
        assertThat(Files.readString(Build.root().resolve("portals")))
                .contains("API_SITE=\"$ROOT/target/site/apidocs\"");
    }

    private static String match(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("found " + regex).isTrue();
        return group(m);
    }

    private static String group(Matcher m) {
        @Nullable String g = m.group(1);
        if (g == null) {
            throw new AssertionError("no text in " + m.group());
        }
        return g;
    }
}
