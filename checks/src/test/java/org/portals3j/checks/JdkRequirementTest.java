package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every build entry point, started with a JDK older than 25 (the machine's JDK 17), says in one line that JDK 25
 * is needed and how to select it: plain {@code mvn} in the root, {@code ./portals build} and the README's test
 * command {@code ./portals test}. Skipped, with the reason, where no older JDK is installed.
 */
class JdkRequirementTest {
    @Test
    void plainMavenWithAnOldJdkSaysWhatToDo(@TempDir Path dir) throws Exception {
        Path oldJdk = oldJdk();
        Optional<Path> mvn = onPath("mvn");
        assumeTrue(mvn.isPresent(), "mvn is not on the PATH");
        @Nullable String repo = System.getProperty("portals3j.m2");
        assumeTrue(repo != null, "portals3j.m2 (the local repository) is not set: run through Maven");
        Run run = run(dir, Map.of("JAVA_HOME", oldJdk.toString(), "MAVEN_OPTS", ""), mvn.get().toString(), "-B",
                "-o", "-N", "-Dstyle.color=never", "-Dmaven.repo.local=" + repo, "validate");
        assertThat(run.status).as(run.output).isNotZero();
        assertThat(run.output).doesNotContain("Could not create the Java Virtual Machine");
        assertThat(run.output.lines().filter(l -> l.contains("needs JDK 25") && l.contains("JAVA_HOME=")))
                .as(run.output).hasSize(1);
    }

    @Test
    void portalsWithOnlyAnOldJdkSaysWhatToDoInOneLine(@TempDir Path dir) throws Exception {
        Path oldJdk = oldJdk();
        Path jvms = Files.createDirectories(dir.resolve("jvm"));
        Files.createSymbolicLink(jvms.resolve("old-jdk"), oldJdk);
        for (String command : List.of("build", "test")) { // ./portals test is the README's test command
            Run run = run(dir, Map.of("JAVA_HOME", oldJdk.toString(), "PORTALS3J_JVM_DIR", jvms.toString()),
                    Build.root().resolve("portals").toString(), command);
            assertThat(run.status).as(run.output).isEqualTo(2);
            assertThat(run.output.lines().toList()).as(command).singleElement().asString()
                    .startsWith("portals: Portals3J needs JDK 25").contains("set JAVA_HOME to a JDK 25");
        }
    }

    /** A JDK older than 25: Debian's 17, or the java on the PATH if it is older. */
    private static Path oldJdk() throws Exception {
        for (String candidate : List.of("/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/java-17-openjdk-arm64")) {
            if (Files.isExecutable(Path.of(candidate, "bin", "java"))) {
                return Path.of(candidate);
            }
        }
        Optional<Path> java = onPath("java");
        assumeTrue(java.isPresent(), "no java on the PATH and no JDK 17 under /usr/lib/jvm");
        Path home = java.get().toRealPath().resolve("../..").normalize();
        Run version = run(Files.createTempDirectory("jdk"), Map.of(), java.get().toString(), "-version");
        assumeTrue(!version.output.contains("version \"25") && !version.output.matches("(?s).*version \"2[6-9].*"),
                "the java on the PATH is 25 or newer: no older JDK to try");
        return home;
    }

    private static Optional<Path> onPath(String name) {
        @Nullable String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(File.pathSeparator)).map(d -> Path.of(d, name)).filter(Files::isExecutable)
                .findFirst();
    }

    private record Run(int status, String output) {
    }

    private static Run run(Path dir, Map<String, String> env, String... command) throws Exception {
        Path log = dir.resolve("output.txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(Build.root().toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not end within 120 s: " + String.join(" ", command));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
