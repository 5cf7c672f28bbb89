package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shaded launcher jar as {@code ./portals} runs it ({@code java -jar portals-launcher.jar ...}): the unit
 * tests run the launcher from the test class path, which hides what the jar lacks (a missing service file,
 * a dependency left out of the shade). Runs after {@code package} (failsafe).
 */
class LauncherJarIT {

    private static List<String> run(Path workDir, String... args) throws IOException, InterruptedException {
        String jar = System.getProperty("portals3j.launcher.jar", "target/portals-launcher.jar");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-jar", jar));
        cmd.addAll(List.of(args));
        Path log = workDir.resolve("out.log");
        Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("java -jar " + String.join(" ", args) + " did not end: " + Files.readString(log));
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
        lines.add("exit " + p.exitValue());
        return lines;
    }

    @Test
    void theJarRunsTheKitAndWritesTheReport(@TempDir Path dir) throws Exception {
        List<String> out = run(dir, "tck", "--transport", "inmem", "--assertion", "P-001,I-017");
        assertThat(out).as(String.join("\n", out)).last().isEqualTo("exit 0");
        assertThat(out).anyMatch(l -> l.matches("inmem: [1-9]\\d* passed, 0 failed, 0 skipped in .*"))
                .contains("HTML report: " + dir.resolve("tck-report").resolve("index.html").toRealPath());
    }

    @Test
    void theJarListsItsTransports(@TempDir Path dir) throws Exception {
        List<String> out = run(dir, "info");
        assertThat(out).as(String.join("\n", out)).contains("inmem:", "udp:").last().isEqualTo("exit 0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inmem", "udp"})
    void theJarRunsAnMpiProgramWhoseJarHoldsOnlyTheProgram(String transport, @TempDir Path dir) throws Exception {
        Path jar = MpiPrograms.appJar("PiByQuadrature",
                Path.of(System.getProperty("portals3j.mpi.classes", "../layers/mpi/target/classes")), dir);
        List<String> out = run(dir, "run", "-n", "4", "--transport", transport, "-cp", jar.toString(), "--",
                "PiByQuadrature", "100000");
        assertThat(out).as(String.join("\n", out))
                .contains("[0] pi is 3.141593 on 4 ranks; the token came back from rank 3 as 6",
                        "[2] rank 2 of 4 passed the token on")
                .last().isEqualTo("exit 0");
    }
}
