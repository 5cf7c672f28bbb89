package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.security.CodeSource;
import mpi.MPI;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code portals run -n 4 -cp app.jar -- PiByQuadrature} runs an MPI program written as for Open MPI's Java bindings,
 * compiled against the layer, with only the program in {@code app.jar}: the launcher's class path carries the
 * layer, as four threads on inmem and four JVMs on udp. {@link LauncherJarIT} runs it from the shaded jar.
 */
class MpiProgramRunTest {

    @ParameterizedTest
    @ValueSource(strings = {"inmem", "udp"})
    void anOpenMpiStyleProgramRunsOnFourRanksWithoutTheLayerOnItsClassPath(String transport, @TempDir Path dir)
            throws Exception {
        CodeSource layer = MPI.class.getProtectionDomain().getCodeSource();
        if (layer == null) {
            throw new IllegalStateException("package mpi has no code source to compile the program against");
        }
        Path mpiClasses = Path.of(layer.getLocation().toURI());
        Path jar = MpiPrograms.appJar("PiByQuadrature", mpiClasses, dir);
        LauncherProcess run = LauncherProcess.start("run", "-n", "4", "--transport", transport, "-cp",
                jar.toString(), "--", "PiByQuadrature", "100000");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] pi is 3.141593 on 4 ranks; the token came back from rank 3 as 6",
                "[1] rank 1 of 4 passed the token on", "[3] rank 3 of 4 passed the token on");
    }
}
