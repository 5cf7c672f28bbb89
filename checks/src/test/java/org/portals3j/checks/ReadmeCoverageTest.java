package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README covers what the build has: a Layout row for every module folder, the system libraries a module needs
 * under Requirements, and a section for each network transport saying how to select and configure it.
 */
class ReadmeCoverageTest {
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void everyModuleFolderHasALayoutRow() throws IOException {
        String layout = section("## Layout");
        List<String> missing = new ArrayList<>();
        for (String folder : leafModules(Build.root(), "")) {
            if (!layout.contains("| `" + folder + "/` |")) {
                missing.add(folder);
            }
        }
        assertThat(missing).as("module folders without a row \"| `folder/` | what is there |\" under ## Layout")
                .isEmpty();
    }

    @Test
    void theRequirementsNameLibfabricForTheGmTransport() throws IOException {
        assertThat(section("## Requirements")).contains("libfabric1").contains("libfabric-dev").contains("`gm`");
    }

    @Test
    void theGmSectionSaysHowToSelectItItsProvidersAndWhatPortalsInfoShows() throws IOException {
        String gm = section("## The gm transport");
        assertThat(gm).contains("--transport gm").contains("gm.provider").contains("portals info")
                .contains("libfabric1");
        for (String provider : List.of("`tcp`", "`shm`", "`udp`", "`net`")) {
            assertThat(gm).as("the gm section names provider " + provider).contains(provider);
        }
    }

    /** The text from the line {@code heading} to the next heading of the same level. */
    private static String section(String heading) throws IOException {
        List<String> lines = Files.readAllLines(Build.root().resolve("README.md"));
        int at = lines.indexOf(heading);
        assertThat(at).as("README.md has a line '" + heading + "'").isNotNegative();
        StringBuilder text = new StringBuilder();
        for (int i = at + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            text.append(lines.get(i)).append('\n');
        }
        return text.toString();
    }

    /** The folders (relative to the root, '/'-separated) of the modules that have no modules of their own. */
    private static List<String> leafModules(Path root, String folder) throws IOException {
        String pom = Files.readString(root.resolve(folder).resolve("pom.xml"));
        Matcher m = MODULE.matcher(pom);
        List<String> leaves = new ArrayList<>();
        boolean any = false;
        while (m.find()) {
            any = true;
            String name = String.valueOf(m.group(1)).trim();
            String child = folder.isEmpty() ? name : folder + "/" + name;
            leaves.addAll(leafModules(root, child));
        }
        if (!any && !folder.isEmpty()) {
            leaves.add(folder);
        }
        return leaves.stream().distinct().toList();
    }
}
