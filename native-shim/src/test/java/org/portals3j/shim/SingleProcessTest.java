package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A C program run on its own, without portals run: a job of one rank, the engine found from what the build
 * baked into libportals3; a program that calls no Portals function starts no JVM; and an engine that
 * cannot start is reported, not a crash; a program mixing the two dialects is told so.
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
        assertThat(o.err()).contains("libportals3: cannot start the Portals engine: no JVM at /nonexistent/lib/server/libjvm.so")
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

    @Test
    void aProgramMixingDialectsGetsPtlFailFromTheOtherDialectsCallsAndAMessageSayingToCompileAlike() throws Exception {
        Path exe = CBuild.OUT.resolve("mixed_dialects");
        Path o33 = CBuild.OUT.resolve("mixed_dialects.o");
        Path o32 = CBuild.OUT.resolve("mixed_dialects32.o");
        List<CBuild.Outcome> builds = List.of(
                CBuild.portalscc("-Wall", "-Wextra", "-Werror", "-DPTL_DIALECT_33", "-I" + CBuild.SOURCES, "-c",
                        CBuild.SOURCES.resolve("mixed_dialects.c").toString(), "-o", o33.toString()),
                CBuild.portalscc("-Wall", "-Wextra", "-Werror", "-c", CBuild.SOURCES.resolve("mixed_dialects32.c").toString(),
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
        assertThat(first33.err()).contains("PtlInit was compiled for Portals 3.2", "PtlFini was compiled for Portals 3.2");

        CBuild.Outcome first32 = CJob.alone(exe, Map.of(), "32");
        assertThat(first32.status()).as(first32.all()).isZero();
        assertThat(first32.out()).contains("mixed_dialects: 32 first: passed");
        assertThat(first32.err()).contains("PtlInit was compiled for Portals 3.3 (compiled with -DPTL_DIALECT_33), but"
                + " this process chose Portals 3.2 (compiled without -DPTL_DIALECT_33)")
                .contains("PtlNIInit was compiled for Portals 3.3", "PtlGetJid was compiled for Portals 3.3");
    }
}
