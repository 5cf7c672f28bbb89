package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A C program run on its own, without portals run: a job of one rank, the engine found from what the build
 * baked into libportals3; a program that calls no Portals function starts no JVM; and an engine that
 * cannot start is reported, not a crash; a program mixing the two dialects is told so; a child forked after
 * PtlInit fails its Portals calls at once and ends; a fault in the program's code ends it by its signal.
 */
class SingleProcessTest {

    @Test
    void programWithoutLauncherOrEnvironmentRunsAsAJobOfOneOnTheBuildsJdkAndClasses() throws Exception {
        Path program = CBuild.compile("return_codes");
        CBuild.Outcome o = CJob.alone(program, Map.of());
        assertThat(o.status()).as(o.all()).isZero();
        assertThat(o.out()).contains("return_codes: rank 0 passed");
    }

    @Test
    void programThatCallsNoPortalsFunctionStartsNoJvm() throws Exception {
        Path program = CBuild.compile("no_portals");
        CBuild.Outcome o = CJob.alone(program, Map.of("PORTALS3J_JAVA_HOME", "/nonexistent"), "a", "b");
        assertThat(o.status()).as(o.all()).isZero();
        assertThat(o.out()).contains("no_portals: 2 arguments, no JVM");
        assertThat(o.err()).isEmpty();
    }

    @Test
    void missingJdkIsPtlFailWithAMessageSayingToSetPortals3jJavaHome() throws Exception {
        Path program = CBuild.compile("boot_failure");
        CBuild.Outcome o = CJob.alone(program, Map.of("PORTALS3J_JAVA_HOME", "/nonexistent"));
        assertThat(o.status()).as(o.all()).isZero();
        assertThat(o.out()).contains("boot_failure: reported");
        assertThat(o.err()).contains("libportals3: cannot start the Portals engine: "
                + "no JVM at /nonexistent/lib/server/libjvm.so")
                .contains("set PORTALS3J_JAVA_HOME to a JDK 25 or newer");
        assertThat(o.err().lines().count()).as("one message, not one per call").isEqualTo(1);
    }

    @Test
    void missingClassesArePtlFailWithAMessageSayingToSetPortals3jClasspath() throws Exception {
        Path program = CBuild.compile("boot_failure");
        CBuild.Outcome o = CJob.alone(program, Map.of("PORTALS3J_CLASSPATH", "/nonexistent.jar"));
        assertThat(o.status()).as(o.all()).isZero();
        assertThat(o.err()).contains("ShimBootstrap cannot be loaded").contains("set PORTALS3J_CLASSPATH");
    }

    @Test
    void badJvmOptionsArePtlFailWithAMessageNamingThem() throws Exception {
        Path program = CBuild.compile("boot_failure");
        CBuild.Outcome o = CJob.alone(program, Map.of("PORTALS3J_JVM_OPTIONS", "-XX:NoSuchOption"));
        assertThat(o.status()).as(o.all()).isZero();
        assertThat(o.err()).contains("refused to start").contains("PORTALS3J_JVM_OPTIONS (\"-XX:NoSuchOption\")");
    }

    @ParameterizedTest(name = "Portals 3.3: {0}")
    @ValueSource(booleans = {false, true})
    void aChildForkedAfterPtlInitFailsEveryPortalsCallAtOnceAndEndsOnItsOwn(boolean dialect33) throws Exception {
        Path program = dialect33 ? CBuild.compile33("fork_child", "fork_child33") : CBuild.compile("fork_child");
        CBuild.Outcome o = CJob.alone(program, Map.of());
        assertThat(o.status()).as(o.all()).isZero();
        assertThat(o.out()).contains("fork_child: 24 children ended on their own", "fork_child: rank 0 passed");
        assertThat(o.err().lines().filter(l -> l.startsWith("libportals3: PtlFini called in process ")
                && l.contains("forked from process") && l.contains("every Portals call here fails (PTL_FAIL")))
                .as("one line from each child that called Portals (18 of 24; the others crash first)\n%s", o.err())
                .hasSize(18);
        assertThat(o.err()).doesNotContain("fatal error");
    }

    @Test
    void aChildForkedAfterPtlInitDoesNotOutliveTheProcessItWasForkedFrom() throws Exception {
        CBuild.Outcome o = CJob.alone(CBuild.compile("fork_child"), Map.of(), "orphan");
        assertThat(o.status()).as(o.all()).isZero();
        long pid = o.out().lines().filter(l -> l.startsWith("fork_child: orphan ")).mapToLong(l -> Long.parseLong(
                l.substring("fork_child: orphan ".length()))).findFirst().orElseThrow();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        assertThat(alive).as("the forked child %d is still running 20 s after its parent ended", pid).isFalse();
    }

    @Test
    void aNullDereferenceAfterPtlInitKillsTheProgramBySigsegvWithNoJvmReportAndNoHsErrFile() throws Exception {
        Path program = CBuild.compile("crash");
        List<Path> before = hsErrFiles();
        CBuild.Outcome o = CJob.alone(program, Map.of());
        assertThat(o.status()).as("killed by signal 11: 128 + 11\n%s", o.all()).isEqualTo(139);
        assertThat(o.out()).isEqualTo("crash: Portals is up, dereferencing NULL\n");
        assertThat(o.err()).as("nothing from the JVM").isEmpty();
        assertThat(hsErrFiles()).as("hs_err files in the working directory").isEqualTo(before);

        CBuild.Outcome shell = CBuild.run(List.of("bash", "-c", program + "; echo status $?"), Map.of(), CBuild.OUT);
        assertThat(shell.out()).contains("status 139");
        assertThat(shell.err().lines()).as("the shell's one line").singleElement(InstanceOfAssertFactories.STRING)
                .contains("Segmentation fault");
    }

    @Test
    void aSigsegvHandlerTheProgramInstalledBeforePtlInitStillRuns() throws Exception {
        CBuild.Outcome o = CJob.alone(CBuild.compile("crash"), Map.of(), "own-handler");
        assertThat(o.status()).as(o.all()).isEqualTo(42);
        assertThat(o.out()).contains("crash: the program's own SIGSEGV handler ran");
        assertThat(o.err()).isEmpty();
    }

    @Test
    void portals3jJvmCrashReportAsksForTheJvmsFatalErrorReport() throws Exception {
        Path report = CBuild.OUT.resolve("crash-report.log");
        Files.deleteIfExists(report);
        CBuild.Outcome o = CJob.alone(CBuild.compile("crash"), Map.of("PORTALS3J_JVM_CRASH_REPORT", "1",
                "PORTALS3J_JVM_OPTIONS", "-XX:ErrorFile=" + report));
        assertThat(o.status()).as("the JVM aborts: 128 + SIGABRT\n%s", o.all()).isEqualTo(134);
        assertThat(o.all()).contains("A fatal error has been detected by the Java Runtime Environment");
        assertThat(report).exists();
        Files.delete(report);
    }

    private static List<Path> hsErrFiles() throws IOException {
        try (Stream<Path> files = Files.list(CBuild.OUT)) {
            return files.filter(p -> String.valueOf(p.getFileName()).startsWith("hs_err")).sorted().toList();
        }
    }

    @Test
    void aProgramMixingDialectsGetsPtlFailFromTheOtherDialectsCallsAndAMessageSayingToCompileAlike() throws Exception {
        Path exe = CBuild.OUT.resolve("mixed_dialects");
        Path o33 = CBuild.OUT.resolve("mixed_dialects.o");
        Path o32 = CBuild.OUT.resolve("mixed_dialects32.o");
        List<CBuild.Outcome> builds = List.of(
                CBuild.portalscc("-Wall", "-Wextra", "-Werror", "-DPTL_DIALECT_33", "-I" + CBuild.SOURCES, "-c",
                        CBuild.SOURCES.resolve("mixed_dialects.c").toString(), "-o", o33.toString()),
                CBuild.portalscc("-Wall", "-Wextra", "-Werror", "-c",
                        CBuild.SOURCES.resolve("mixed_dialects32.c").toString(),
                        "-o", o32.toString()),
                CBuild.portalscc(o33.toString(), o32.toString(), "-o", exe.toString()));
        for (CBuild.Outcome b : builds) {
            assertThat(b.status()).as(b.all()).isZero();
        }

        CBuild.Outcome first33 = CJob.alone(exe, Map.of(), "33");
        assertThat(first33.status()).as(first33.all()).isZero();
        assertThat(first33.out()).contains("mixed_dialects: 33 first: passed");
        assertThat(first33.err()).contains("libportals3: PtlNIInit was compiled for Portals 3.2 (compiled without"
                + " -DPTL_DIALECT_33), but this process chose Portals 3.3 (compiled with -DPTL_DIALECT_33) at its first"
                + " PtlInit; a process uses one dialect: compile every file that calls Portals functions with the same"
                + " setting of PTL_DIALECT_33");
        assertThat(first33.err().lines().filter(l -> l.contains("PtlNIInit was compiled"))).as("said once").hasSize(1);
        assertThat(first33.err()).contains("PtlInit was compiled for Portals 3.2",
                "PtlFini was compiled for Portals 3.2");

        CBuild.Outcome first32 = CJob.alone(exe, Map.of(), "32");
        assertThat(first32.status()).as(first32.all()).isZero();
        assertThat(first32.out()).contains("mixed_dialects: 32 first: passed");
        assertThat(first32.err()).contains("PtlInit was compiled for Portals 3.3 (compiled with -DPTL_DIALECT_33), but"
                + " this process chose Portals 3.2 (compiled without -DPTL_DIALECT_33)")
                .contains("PtlNIInit was compiled for Portals 3.3", "PtlGetJid was compiled for Portals 3.3");
    }
}
