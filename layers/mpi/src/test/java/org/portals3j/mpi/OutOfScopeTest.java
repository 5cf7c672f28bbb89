package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Objects;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import mpi.File;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The out-of-scope families (mpi-java-api.md section 3): a program that touches every member of Win, File, FileView
 * and the dynamic processes ({@code src/test/programs/OutOfScope.java}) compiles unchanged and, run on 2 ranks under
 * ERRORS_RETURN, sees ERR_UNSUPPORTED_OPERATION from each; under the default handler the call ends the job.
 */
class OutOfScopeTest {

    @SuppressWarnings("nullness") // Method.invoke's receiver is null for a static method
    @Test
    void theOutOfScopeProgramCompilesUnchangedAndEveryMemberFails(@TempDir Path out) throws Exception {
        Path source = Path.of("src/test/programs/OutOfScope.java");
        Path classes = Path.of(Objects.requireNonNull(MPI.class.getProtectionDomain().getCodeSource()).getLocation()
                .toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", out.toString(), "-cp", classes.toString(), "-Xlint:all",
                "-Werror", source.toString());
        assertThat(status).as("javac status").isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = loader.loadClass("OutOfScope").getMethod("main", String[].class);
            MpiJob.run(2, rank -> main.invoke(null, (Object) new String[0]));
        }
    }

    @Test
    void underTheDefaultHandlerAnUnsupportedCallEndsTheJob() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            assertThatThrownBy(() -> world.spawn("worker", null, 1, MPI.INFO_NULL, 0, null))
                    .isInstanceOfSatisfying(MpiJob.Aborted.class,
                            e -> assertThat(e.status).isEqualTo(MPI.ERR_UNSUPPORTED_OPERATION));
            assertThatThrownBy(Intracomm::openPort).isInstanceOf(MpiJob.Aborted.class);
            assertThatThrownBy(() -> new Win(MPI.INFO_NULL, world)).isInstanceOf(MpiJob.Aborted.class);
            assertThatThrownBy(() -> new File(world, "f", MPI.MODE_RDONLY)).isInstanceOf(MpiJob.Aborted.class);
            MPI.Finalize();
        });
    }

    @Test
    void theErrorGoesThroughTheHandlerOfTheCommunicatorGiven() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm mine = MPI.COMM_WORLD.dup();
            mine.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> new Win(MPI.INFO_NULL, mine)))
                    .isEqualTo(MPI.ERR_UNSUPPORTED_OPERATION);
            assertThat(MpiErrors.errorClassOf(() -> mine.connect("port", 0)))
                    .isEqualTo(MPI.ERR_UNSUPPORTED_OPERATION);
            // COMM_WORLD still aborts: the static members use its handler
            assertThatThrownBy(() -> Intracomm.lookupName("service")).isInstanceOf(MpiJob.Aborted.class);
            assertThat(Intercomm.getParent().isNull()).isTrue();
            mine.disconnect();
            assertThat(mine.isNull()).isTrue();
            MPI.Finalize();
        });
    }
}
