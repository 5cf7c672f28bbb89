package org.portals3j.launcher;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;

/**
 * The README's Open MPI recipe: {@code mpirun -np 4 --oversubscribe} starts four ranks of each job. Skipped,
 * saying why, when Open MPI's mpirun is not installed.
 */
class OpenMpiIT extends StarterJobs {

    @BeforeAll
    static void mpirunIsInstalled() throws Exception {
        Commands.Result version = Commands.run("mpirun", "--version");
        assumeTrue(version.status() == 0, "Open MPI's mpirun is not usable here (Debian package openmpi-bin; the"
                + " test command installs it as root): " + version.output().strip());
    }

    @Override
    List<String> starter() {
        return List.of("mpirun", "-np", Integer.toString(RANKS), "--oversubscribe");
    }

    /** mpirun gives no host list: the recipe names rank 0's host, here this one, where mpirun places rank 0. */
    @Override
    String rendezvous(int port) {
        return "127.0.0.1:" + port;
    }

    @Override
    Map<String, String> starterEnvironment() {
        // mpirun refuses to run as root without both; as another user they change nothing
        return Map.of("OMPI_ALLOW_RUN_AS_ROOT", "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
}
