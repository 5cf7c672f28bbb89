package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code portals --version} and {@code -V} from the shaded jar print the build's version. Runs after package. */
class VersionIT {
    @Test
    void versionAndDashCapitalVPrintTheVersion(@TempDir Path dir) throws Exception {
        String jar = System.getProperty("portals3j.launcher.jar", "target/portals-launcher.jar");
        String parent = Files.readString(Path.of("pom.xml")); // the launcher's pom: its parent names the version
        Matcher m = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL).matcher(parent);
        assertThat(m.find()).isTrue();
        String expected = "portals " + m.group(1);
        for (String option : List.of("--version", "-V")) {
            Path out = dir.resolve("out" + option + ".txt");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                    jar, option).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(Files.readAllLines(out, StandardCharsets.UTF_8)).containsExactly(expected);
        }
    }
}
