package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A C program run on its own, without portals run: a job of one rank, the engine found from what the build
 * baked into libportals3; a program that calls no Portals function starts no JVM; and an engine that
 * cannot start is reported, not a crash.
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
}
