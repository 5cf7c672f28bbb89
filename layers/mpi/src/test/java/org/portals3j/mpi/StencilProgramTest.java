package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import mpi.MPI;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An Open MPI-style stencil program ({@code src/test/programs/Stencil.java}: createDims, createCart, shift,
 * sendRecv) compiles against this module's classes without a change and computes the serial result on 1, 4 and 6
 * ranks over inmem and on 4 over udp (a wrong block aborts the job, which fails the test).
 */
class StencilProgramTest {

    @ParameterizedTest
    @CsvSource({"inmem, 1", "inmem, 4", "inmem, 6", "inmem, 8", "udp, 4"})
    @SuppressWarnings("nullness") // Method.invoke(null, ...) calls a static method
    void theStencilProgramCompilesUnchangedAndRuns(String transport, int size, @TempDir Path out) throws Exception {
        Path source = Path.of("src/test/programs/Stencil.java");
        Path classes = Path.of(MpiJob.present(MPI.class.getProtectionDomain().getCodeSource()).getLocation()
                .toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", out.toString(), "-cp", classes.toString(), "-Xlint:all",
                "-Werror", source.toString());
        assertThat(status).as("javac status").isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = loader.loadClass("Stencil").getMethod("main", String[].class);
            MpiJob.run(transport, size, rank -> main.invoke(null, (Object) new String[0]));
        }
    }
}
