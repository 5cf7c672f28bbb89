package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Objects;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import mpi.MPI;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A program written for Open MPI's Java bindings that sizes its receives by matched probe ({@code
 * src/test/programs/Collector.java}) compiles against this module's classes without a change and runs (it aborts on
 * a wrong value).
 */
class MatchedProbeProgramTest {

    @SuppressWarnings("nullness") // Method.invoke's receiver is null for a static method
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void theCollectorProgramCompilesUnchangedAndRuns(int size, @TempDir Path out) throws Exception {
        Path source = Path.of("src/test/programs/Collector.java");
        Path classes = Path.of(Objects.requireNonNull(MPI.class.getProtectionDomain().getCodeSource()).getLocation()
                .toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", out.toString(), "-cp", classes.toString(), "-Xlint:all",
                "-Werror", source.toString());
        assertThat(status).as("javac status").isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = loader.loadClass("Collector").getMethod("main", String[].class);
            MpiJob.run(size, rank -> main.invoke(null, (Object) new String[0]));
        }
    }
}
