package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code portals run -- prog} looks a name without '/' up as a class, then on PATH, as a shell does; a program
 * that is only in the current directory gets one line saying to write {@code ./prog}.
 */
class ProgramLookupTest {
    @Test
    void anExecutableInTheCurrentDirectoryGetsTheHint(@TempDir Path dir) throws Exception {
        Path prog = Files.writeString(dir.resolve("prog"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(prog, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(hint("prog", dir)).contains("no class prog on the class path and no program prog on PATH; to run"
                + " the program in this folder, write ./prog");
        Files.writeString(dir.resolve("notes"), "text");
        assertThat(hint("notes", dir)).as("not executable").isEmpty();
        assertThat(hint("absent", dir)).isEmpty();
        Files.createDirectory(dir.resolve("folder"));
        assertThat(hint("folder", dir)).isEmpty();
    }

    private static Optional<String> hint(String name, Path dir) {
        return Optional.ofNullable(NativePrograms.currentDirectoryHint(name, dir));
    }

    @Test
    void portalsRunInTheProgramsFolderSaysToWriteDotSlash(@TempDir Path dir) throws Exception {
        Path prog = Files.writeString(dir.resolve("myprog"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(prog, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), PortalsCommand.class.getName(), "run", "-n", "2", "--",
                "myprog")).directory(dir.toFile()).redirectError(err.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(PortalsCommand.USAGE_ERROR);
        assertThat(Files.readAllLines(err, StandardCharsets.UTF_8)).containsExactly("portals run: no class myprog on"
                + " the class path and no program myprog on PATH; to run the program in this folder, write ./myprog");
    }
}
