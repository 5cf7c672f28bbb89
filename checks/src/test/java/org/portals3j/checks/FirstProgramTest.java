package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first program, exactly as printed there: compiled against the jars the build publishes
 * (portals-api and what it brings, transport-spi) and run with the README's command through the launcher jar.
 */
class FirstProgramTest {
    static final String HEADING = "### A first program";

    @Test
    void theReadmeProgramCompilesAndRunsOnTwoRanks(@TempDir Path dir) throws Exception {
        List<String> program = Readme.block(HEADING, "java");
        Path source = dir.resolve("Hello.java");
        Files.write(source, program);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        String classPath = jar("portals-api", "portals-api") + ":" + jar("transports/spi", "transport-spi");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(null, null, null, "-d", classes.toString(), "-cp", classPath, source.toString());
        assertThat(compiled).as("javac of the README's Hello.java (its errors are above)").isZero();

        String command = Readme.block(HEADING, "sh").stream().filter(l -> l.startsWith("./portals run"))
                .findFirst().orElseThrow(() -> new AssertionError("no ./portals run line after " + HEADING));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED", "-jar",
                Build.root().resolve("launcher/target/portals-launcher.jar").toString()));
        String[] words = command.replaceFirst("#.*", "").trim().split(" +");
        for (int i = 1; i < words.length; i++) { // words[0] is ./portals, which runs the jar above
            cmd.add(words[i].equals("target/classes") ? classes.toString() : words[i]);
        }
        Path log = dir.resolve("output.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS_"));
        Process p = pb.start();
        boolean ended = p.waitFor(180, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(ended).as("the job ended within 180 s: " + output).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("[1] rank 1 got: hello from rank 0");
    }

    /** The main jar of the module in {@code folder}, as the build packaged it. */
    static Path jar(String folder, String artifactId) throws IOException {
        Path target = Build.root().resolve(folder).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> {
                String n = f.toFile().getName();
                return n.startsWith(artifactId + "-") && n.endsWith(".jar") && !n.endsWith("-sources.jar")
                        && !n.endsWith("-javadoc.jar") && !n.endsWith("-tests.jar");
            }).findFirst().orElseThrow(() -> new AssertionError("no " + artifactId + " jar in " + target
                    + ": package it first (mvn package -pl " + folder + ")"));
        }
    }
}
