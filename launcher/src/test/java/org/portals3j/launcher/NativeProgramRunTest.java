package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.transport.Availability;
import org.portals3j.transport.gm.GmTransportProvider;

/**
 * {@code portals run} with a native program: unmodified C programs of native-shim's tests, built with its
 * portalscc, run as rank processes whose Portals calls start the Java engine inside them.
 */
class NativeProgramRunTest {
    private static final Path NATIVE = Path.of(System.getProperty("portals3j.native", "native"));
    private static final Path SOURCES = Path.of(System.getProperty("portals3j.c.sources", "c"));
    private static final Path OUT = Path.of(System.getProperty("portals3j.c.build", "c-programs"));

    @BeforeAll
    static void buildPrograms() throws Exception {
        Files.createDirectories(OUT);
        for (String name : List.of("put_pingpong", "no_portals", "boot_failure")) {
            Process cc = new ProcessBuilder(NATIVE.resolve("bin/portalscc").toString(), "-Wall", "-Werror",
                    "-I" + SOURCES, SOURCES.resolve(name + ".c").toString(), "-o", OUT.resolve(name).toString())
                    .redirectErrorStream(true).start();
            String output = new String(cc.getInputStream().readAllBytes());
            assertThat(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0)
                    .as("portalscc %s.c (is native-shim built?): %s", name, output).isTrue();
        }
    }

    @Test
    void cProgramRunsAsTwoRankProcessesOnUdpAndEachRankPasses() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--", OUT.resolve("put_pingpong").toString());
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrder("[0] put_pingpong: rank 0 passed",
                "[1] put_pingpong: rank 1 passed");
        assertThat(run.err).isEmpty();
    }

    /**
     * On gm the JVM inside each C process loads libgm (from the native-gm jar on the launcher's class path) and
     * libfabric; over tcp;ofi_rxm and over shm between the two processes.
     */
    @ParameterizedTest(name = "over gm.provider={0}")
    @ValueSource(strings = {"tcp", "shm"})
    void cProgramRunsAsTwoRankProcessesOnGmAndEachRankPasses(String provider) throws Exception {
        Availability gm = GmTransportProvider.availability(provider);
        Assumptions.assumeTrue(gm.available(), "gm over " + provider + " is not available here: " + gm.reason());
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--transport", "gm",
                "--transport-option", "gm.provider=" + provider, "--", OUT.resolve("put_pingpong").toString());
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrder("[0] put_pingpong: rank 0 passed",
                "[1] put_pingpong: rank 1 passed");
        assertThat(run.err).isEmpty();
    }

    @Test
    void programFoundOnPathByNameWhenNoClassHasThatName() throws Exception {
        LauncherProcess run = LauncherProcess.startWithEnv(Map.of("PATH", OUT + ":" + System.getenv("PATH")),
                "run", "-n", "1", "--", "no_portals", "x");
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactly("[0] no_portals: 1 arguments, no JVM");
    }

    @Test
    void jvmOptionsReachTheEngineInsideTheProgram() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "1", "--jvm-option=-XX:NoSuchOption", "--",
                OUT.resolve("boot_failure").toString());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).contains("[0] boot_failure: reported");
        assertThat(String.join("\n", run.err)).contains("PORTALS3J_JVM_OPTIONS (\"-XX:NoSuchOption\")");
    }

    @Test
    void inmemTransportWithAProgramIsAUsageErrorSayingWhy() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--transport", "inmem", "--",
                OUT.resolve("put_pingpong").toString());
        assertThat(run.await()).isEqualTo(PortalsCommand.USAGE_ERROR);
        assertThat(run.err).containsExactly("portals run: --transport inmem runs the ranks as threads of one JVM, but "
                + OUT.resolve("put_pingpong") + " is a program: it needs a process per rank; use a transport between"
                + " processes, e.g. --transport udp (the default)");
    }

    @Test
    void pathThatIsNoExecutableIsAUsageError() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--", SOURCES.resolve("ptltest.h").toString());
        assertThat(run.await()).isEqualTo(PortalsCommand.USAGE_ERROR);
        assertThat(run.err).containsExactly("portals run: program " + SOURCES.resolve("ptltest.h")
                + " is not executable: chmod +x " + SOURCES.resolve("ptltest.h"));
    }
}
