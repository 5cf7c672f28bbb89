package org.portals3j.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How the binding finds its glue library, in child JVMs: from the jar's resource when no path is configured, and a
 * one-line reason saying what to do when the configured one is missing.
 */
class LoadingTest {
    @Test
    void loadsTheGlueLibraryFromTheClassPathResource() throws IOException, InterruptedException {
        assumeTrue(Fabric.isAvailable(), () -> "libfabric binding unavailable: " + Fabric.unavailableReason());
        String out = probe(List.of());
        assertThat(out).contains("available=true", "reason=null").containsPattern("query=[1-9]");
    }

    @Test
    void aMissingGlueLibrarySaysWhatToDo() throws IOException, InterruptedException {
        String out = probe(List.of("-Dportals3j.fabric.glue=/nonexistent/libfabric-java.so"));
        assertThat(out).contains("available=false",
                "reason=portals3j.fabric.glue=/nonexistent/libfabric-java.so is not a readable file",
                "query failed: libfabric binding unavailable: portals3j.fabric.glue=");
    }

    private static String probe(List<String> options) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(options);
        cmd.add(AvailabilityProbe.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
