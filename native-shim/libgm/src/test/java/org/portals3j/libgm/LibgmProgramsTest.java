package org.portals3j.libgm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compiles libgm's C test programs (src/test/c) with gcc against target/native and runs each, bounded in time, on
 * the libfabric providers that work here. Skipped, with the reason, where gcc, libfabric or the provider is
 * missing. A program exits 0 when every check passed, 77 when its provider cannot open an endpoint here.
 */
class LibgmProgramsTest {
    private static final Path NATIVE = Path.of(property("gm.native"));
    private static final Path SOURCES = Path.of(property("gm.c.sources"));
    private static final Path OUT = Path.of(property("gm.c.build"));
    private static final long RUN_SECONDS = 240;
    private static final int SKIP = 77;

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null) {
            throw new IllegalStateException(name
                    + " is not set: run the tests through Maven (native-shim/libgm/pom.xml sets it)");
        }
        return v;
    }

    /** What a command printed and how it ended. */
    private record Outcome(int status, String output) {
    }

    @BeforeAll
    static void needTools() throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.exists(Path.of("/usr/include/rdma/fabric.h")),
                "libfabric-dev is not installed (apt-get install libfabric-dev libfabric-bin): libgm was not built");
        Assumptions.assumeTrue(Files.exists(NATIVE.resolve("lib/libgm.so")),
                "target/native/lib/libgm.so is missing: the build's libfabric profile did not run");
        Outcome gcc;
        try {
            gcc = run(List.of("gcc", "--version"), 60);
        } catch (IOException e) {
            gcc = new Outcome(-1, String.valueOf(e.getMessage()));
        }
        Assumptions.assumeTrue(gcc.status() == 0, "gcc is not installed: " + gcc.output());
        Files.createDirectories(OUT);
    }

    private static Outcome run(List<String> command, long seconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("libgm-test", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                return new Outcome(-1, "timed out after " + seconds + " s:\n" + Files.readString(log));
            }
            return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static Path compile(String name) throws IOException, InterruptedException {
        Path exe = OUT.resolve(name);
        Path lib = NATIVE.resolve("lib");
        List<String> args = new ArrayList<>(List.of("gcc", "-std=gnu11", "-g", "-Wall", "-Wextra", "-Werror",
                "-I" + NATIVE.resolve("include"), "-I" + SOURCES, SOURCES.resolve(name + ".c").toString(),
                "-o", exe.toString(), "-L" + lib, "-lgm", "-lfabric", "-Wl,-rpath," + lib, "-pthread"));
        Outcome o = run(args, 120);
        assertThat(o.status()).as("gcc could not compile %s.c:\n%s", name, o.output()).isZero();
        return exe;
    }

    /** Compiles and runs NAME.c with args; skips when the program says its provider is missing. Its output. */
    private static String runProgram(String name, String... args) throws IOException, InterruptedException {
        Path exe = compile(name);
        List<String> command = new ArrayList<>(List.of(exe.toString()));
        command.addAll(List.of(args));
        Outcome o = run(command, RUN_SECONDS);
        Assumptions.assumeFalse(o.status() == SKIP, () -> name + " " + String.join(" ", args) + ": " + o.output());
        assertThat(o.status()).as("%s %s failed:\n%s", name, String.join(" ", args), o.output()).isZero();
        return o.output();
    }

    @Test
    void eventLayoutsMatchTheHeaderComments() throws IOException, InterruptedException {
        runProgram("gm_layout");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm", "udp"})
    void gmApiBetweenTwoPortsOfOneProcess(String provider) throws IOException, InterruptedException {
        assertThat(runProgram("gm_local", provider))
                .contains("ok directed send then send, get")
                .contains("ok send, put and get with gm_register_memory'd memory");
    }

    /**
     * GM's order per port pair and priority over every length, with puts between: on tcp;ofi_rxm a message above
     * its 16 KiB eager buffer is overtaken by a shorter one sent behind it unless libgm holds the latter.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm", "udp"})
    void sendsOfEveryLengthLandInSendOrder(String provider) throws IOException, InterruptedException {
        assertThat(runProgram("gm_order", provider))
                .contains("ok order per (port, priority) over tiny, eager, segmented and rendezvous sends and puts");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm", "udp"})
    void gmxEventsPollAndWakeup(String provider) throws IOException, InterruptedException {
        runProgram("gmx_poll", provider);
    }

    /** Regions killed runs left in /dev/shm (also under the name the next endpoint would take) never stop a port. */
    @Test
    void shmPortsOpenBesideStaleRegions() throws IOException, InterruptedException {
        assertThat(runProgram("gm_stale_shm"))
                .contains("ok shm ports open beside stale regions with libfabric's default names of this process")
                .contains("ok a shm port skips a region name that is taken")
                .contains("ok a killed process's region is removed at the next open, a live one's kept");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm", "udp"})
    void hostileTrafficRaisesNothing(String provider) throws IOException, InterruptedException {
        runProgram("gm_hostile", provider);
    }

    /** The benchmark's libgm floor (bench GmPingPong --gmx-pingpong) works: a short run prints its median. */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void theCPingPongPrintsItsMedianHalfRoundTrip(String provider) throws IOException, InterruptedException {
        assertThat(runProgram("gmx_pingpong", provider, "8", "200")).containsPattern(
                "(?m)^p50_half_round_trip_us [0-9]+\\.[0-9]{3}$");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm", "udp"})
    void twoProcessesThroughTheMapDirectory(String provider) throws IOException, InterruptedException {
        runProgram("gm_twoproc", provider);
    }
}
