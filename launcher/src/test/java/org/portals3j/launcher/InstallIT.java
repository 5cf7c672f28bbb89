package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code portals install --prefix DIR} from the shaded jar, as a C user does it: the installed tree is moved to
 * another place, names nothing of the build tree, and a C program compiled there with the installed portalscc
 * and with pkg-config runs under the installed {@code portals run} and alone. Runs after {@code package}.
 */
class InstallIT {
    static final String PROGRAM = """
            #include <stdio.h>
            #include <portals3.h>
            #include <portals3_rt.h>

            int main(void) {
                int max_interfaces;
                ptl_handle_ni_t ni;
                ptl_process_id_t id;
                ptl_ni_limits_t limits;
                if (PtlInit(&max_interfaces) != PTL_OK) return 1;
                if (PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &ni) != PTL_OK) return 2;
                if (PtlGetId(ni, &id) != PTL_OK) return 3;
                if (ptl_rt_barrier() != 0) return 4;
                printf("installed: rank %d of %d\\n", ptl_rt_rank(), ptl_rt_size());
                PtlNIFini(ni);
                PtlFini();
                return 0;
            }
            """;

    @Test
    void anInstalledTreeBuildsAndRunsCProgramsWherever(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("cc") && onPath("pkg-config"), "cc or pkg-config is not installed (./portals test installs"
                + " pkgconf as root)");
        Path first = dir.resolve("first");
        Run install = run(dir, Map.of(), java("install", "--prefix", first.toString()));
        assertThat(install.status).as(install.output).isZero();
        Files.createDirectories(dir.resolve("moved"));
        Path prefix = dir.resolve("moved/prefix");
        Files.move(first, prefix); // the installed tree works wherever it is

        for (String file : List.of("include/portals3.h", "include/portals3_rt.h", "include/lapi.h",
                "lib/libportals3.so", "lib/portals3j/portals-launcher.jar", "lib/pkgconfig/portals3.pc",
                "bin/portalscc", "bin/portals", "share/man/man3/PtlInit.3", "share/man/man3/LAPI_Init.3")) {
            assertThat(prefix.resolve(file)).as(file).isRegularFile();
        }
        Path build = Path.of(System.getProperty("user.dir", ".")).toAbsolutePath().resolve("..").normalize();
        try (Stream<Path> files = Files.walk(prefix)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".so")
                    && !f.toString().endsWith(".jar")).toList()) {
                assertThat(Files.readString(f)).as(f + " names the build tree").doesNotContain(build.toString());
            }
        }

        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("prog.c"), PROGRAM);
        Run portalscc = run(work, Map.of(), prefix.resolve("bin/portalscc").toString(), "prog.c", "-o", "prog_cc");
        assertThat(portalscc.status).as(portalscc.output).isZero();
        Run flags = run(work, Map.of("PKG_CONFIG_PATH", prefix.resolve("lib/pkgconfig").toString()), "pkg-config",
                "--cflags", "--libs", "portals3");
        assertThat(flags.status).as(flags.output).isZero();
        List<String> cc = new ArrayList<>(List.of("cc", "prog.c", "-o", "prog_pc"));
        cc.addAll(List.of(flags.output.trim().split("\\s+")));
        Run pc = run(work, Map.of(), cc.toArray(String[]::new));
        assertThat(pc.status).as(pc.output).isZero();

        for (String program : List.of("./prog_cc", "./prog_pc")) {
            Run job = run(work, Map.of(), prefix.resolve("bin/portals").toString(), "run", "-n", "2", "--", program);
            assertThat(job.status).as(job.output).isZero();
            assertThat(job.output).contains("[0] installed: rank 0 of 2", "[1] installed: rank 1 of 2");
        }
        // alone, with no launcher to say where the classes are: libportals3 finds the jar installed beside it
        Run alone = run(work, Map.of(), "./prog_pc");
        assertThat(alone.status).as(alone.output).isZero();
        assertThat(alone.output).contains("installed: rank 0 of 1");
    }

    @Test
    void theInstalledManPagesRead(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("man"), "man is not installed: the pages are not read here");
        Run install = run(dir, Map.of(), java("install", "--prefix", dir.resolve("p").toString()));
        assertThat(install.status).as(install.output).isZero();
        Path man3 = dir.resolve("p/share/man/man3");
        List<String> pages;
        try (Stream<Path> files = Files.list(man3)) {
            pages = files.map(f -> f.toFile().getName()).sorted().toList();
        }
        assertThat(pages).contains("PtlInit.3", "PtlMEAttach.3", "PtlMDAttach.3", "PtlEQAlloc.3", "PtlPut.3",
                "PtlACEntry.3", "ptl_rt.3", "LAPI_Init.3");
        for (String page : pages) {
            Run read = run(dir, Map.of("MANWIDTH", "100"), "man", "-l", man3.resolve(page).toString());
            assertThat(read.status).as(read.output).isZero();
            String name = page.substring(0, page.length() - 2);
            assertThat(read.output).contains("NAME", "SYNOPSIS", "DESCRIPTION", "RETURN VALUE", name);
        }
    }

    /**
     * {@code make install PREFIX=... DESTDIR=...} at the top of the build writes the tree {@code portals install
     * --prefix} writes, file for file, under DESTDIR followed by PREFIX.
     */
    @Test
    void makeInstallHonoursPrefixAndDestdirAndWritesWhatPortalsInstallWrites(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("make"), "make is not installed");
        Path build = Path.of(System.getProperty("user.dir", ".")).toAbsolutePath().resolve("..").normalize();
        Path stage = dir.resolve("stage");
        Run make = run(dir, Map.of(), "make", "-C", build.toString(), "install", "PREFIX=/opt/portals3j",
                "DESTDIR=" + stage);
        assertThat(make.status).as(make.output).isZero();
        Path made = stage.resolve("opt/portals3j");
        Run install = run(dir, Map.of(), java("install", "--prefix", dir.resolve("direct").toString()));
        assertThat(install.status).as(install.output).isZero();

        Map<String, byte[]> direct = tree(dir.resolve("direct"));
        assertThat(direct).containsKeys("include/portals3.h", "lib/libportals3.so", "bin/portals", "bin/portalscc");
        Map<String, byte[]> staged = tree(made);
        assertThat(staged.keySet()).as("the files make install wrote under DESTDIR/PREFIX")
                .containsExactlyInAnyOrderElementsOf(direct.keySet());
        for (Map.Entry<String, byte[]> file : direct.entrySet()) {
            assertThat(staged.getOrDefault(file.getKey(), new byte[0])).as(file.getKey()).isEqualTo(file.getValue());
        }
        assertThat(made.resolve("bin/portalscc")).isExecutable();
    }

    /** Every regular file under {@code root} by its path relative to {@code root}, with its bytes. */
    private static Map<String, byte[]> tree(Path root) throws IOException {
        Map<String, byte[]> files = new HashMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(f).toString(), Files.readAllBytes(f));
            }
        }
        return files;
    }

    @Test
    void withoutANativeBuildItSaysWhereToGetOne(@TempDir Path dir) throws Exception {
        Run install = run(dir, Map.of(), java("install", "--prefix", dir.resolve("p").toString(), "--native",
                dir.resolve("nothing").toString()));
        assertThat(install.status).isEqualTo(2);
        assertThat(install.output.trim()).startsWith("portals install: no libportals3.so in").contains("--native");
    }

    private static String[] java(String... args) {
        String jar = System.getProperty("portals3j.launcher.jar", "target/portals-launcher.jar");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-jar", Path.of(jar).toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        return cmd.toArray(String[]::new);
    }

    private static boolean onPath(String name) {
        @Nullable String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(
                Path.of(d, name)));
    }

    private record Run(int status, String output) {
    }

    private static Run run(Path workDir, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile(workDir, "run", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> environment = pb.environment();
        environment.keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("PORTALS3J_"));
        environment.putAll(new HashMap<>(env));
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 180 s: " + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
