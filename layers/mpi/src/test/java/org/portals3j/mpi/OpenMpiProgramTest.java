package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program written for Open MPI's Java bindings ({@code src/test/programs/Ring.java}) compiles against this module's
 * classes without a change and runs on 3 ranks.
 */
class OpenMpiProgramTest {

    @Test
    @SuppressWarnings("nullness") // Method.invoke(null, ...) calls a static method
    void theRingProgramCompilesUnchangedAndRuns(@TempDir Path out) throws Exception {
        Path source = Path.of("src/test/programs/Ring.java");
        Path classes = Path.of(MpiJob.present(MPI.class.getProtectionDomain().getCodeSource()).getLocation()
                .toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", out.toString(), "-cp", classes.toString(), "-Xlint:all",
                "-Werror", source.toString());
        assertThat(status).as("javac status").isZero();
        assertThat(Files.exists(out.resolve("Ring.class"))).isTrue();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = loader.loadClass("Ring").getMethod("main", String[].class);
            MpiJob.run(3, rank -> main.invoke(null, (Object) List.of("x").toArray(new String[0])));
        }
    }
}
