package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import mpi.MPI;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A program written for Open MPI's Java bindings with derived datatypes ({@code src/test/programs/Columns.java}:
 * resized vectors in scatter and gather, an indexed triangle, a struct record) compiles against this module's
 * classes without a change and runs on 1 and 3 ranks.
 */
class DatatypeProgramTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    @SuppressWarnings("nullness") // Method.invoke(null, ...) calls a static method
    void theColumnsProgramCompilesUnchangedAndRuns(int ranks, @TempDir Path out) throws Exception {
        Path source = Path.of("src/test/programs/Columns.java");
        Path classes = Path.of(MpiJob.present(MPI.class.getProtectionDomain().getCodeSource()).getLocation()
                .toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", out.toString(), "-cp", classes.toString(), "-Xlint:all",
                "-Werror", source.toString());
        assertThat(status).as("javac status").isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = loader.loadClass("Columns").getMethod("main", String[].class);
            MpiJob.run(ranks, rank -> main.invoke(null, (Object) List.of("x").toArray(new String[0])));
        }
    }
}
