package org.portals3j.launcher;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The README's Slurm recipe on a real one-node cluster (slurmctld and slurmd started by this class): srun
 * starts four ranks of each job. Skipped, saying why, when not root or when the cluster cannot start.
 */
class SlurmIT extends StarterJobs {
    private static @Nullable SlurmCluster cluster;
    private static @Nullable Path dir;

    @BeforeAll
    static void startTheCluster() throws Exception {
        Path d = Files.createTempDirectory("portals3j-slurm");
        dir = d;
        try {
            cluster = SlurmCluster.start(d);
        } catch (SlurmCluster.Unavailable e) {
            assumeTrue(false, "no Slurm test cluster: " + e.getMessage());
        }
    }

    @AfterAll
    static void stopTheCluster() throws Exception {
        SlurmCluster c = cluster;
        cluster = null;
        if (c != null) {
            c.close();
        }
        Path d = dir;
        if (d != null) {
            Commands.run("rm", "-rf", d.toString());
        }
    }

    @Override
    List<String> starter() {
        // more tasks than this machine has CPUs: --overcommit (--oversubscribe alone would wait for CPUs)
        return List.of("srun", "-n", Integer.toString(RANKS), "--overcommit", "--kill-on-bad-exit=1");
    }

    /** The recipe's {@code :PORT}: rank 0's node is the first of the step's node list. */
    @Override
    String rendezvous(int port) {
        return ":" + port;
    }

    @Override
    Map<String, String> starterEnvironment() {
        SlurmCluster c = cluster;
        if (c == null) {
            throw new IllegalStateException("the cluster is not running");
        }
        return c.environment();
    }
}
