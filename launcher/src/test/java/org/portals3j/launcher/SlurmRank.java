package org.portals3j.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One rank JVM started the way Slurm would start it, with no launcher: SLURM_PROCID/SLURM_NTASKS, the
 * rendezvous address (rank 0 serves it) and the job key in its environment, on the udp transport. Its
 * stdout (with stderr, unless inherited) is collected line by line.
 */
record SlurmRank(Process process, List<String> output) {

    /**
     * @param prefix    words before {@code java} (e.g. {@code ip netns exec NS}), or none
     * @param options   PORTALS_TRANSPORT_OPTIONS
     * @param mergeErr  collect stderr with stdout (otherwise it goes to the test's stderr)
     */
    static SlurmRank start(List<String> prefix, int rank, int size, String rendezvous, String key, String options,
                           boolean mergeErr, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (mergeErr) {
            pb.redirectErrorStream(true);
        } else {
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("SLURM_")
                || k.startsWith("OMPI_"));
        pb.environment().put("SLURM_PROCID", Integer.toString(rank));
        pb.environment().put("SLURM_NTASKS", Integer.toString(size));
        pb.environment().put("SLURM_JOB_ID", "test-" + rendezvous.replace(':', '-'));
        pb.environment().put("PORTALS_RENDEZVOUS", rendezvous);
        pb.environment().put("PORTALS_JOB_KEY", key);
        pb.environment().put("PORTALS_TRANSPORT", "udp");
        pb.environment().put("PORTALS_TRANSPORT_OPTIONS", options);
        Process p = pb.start();
        List<String> out = new CopyOnWriteArrayList<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    out.add(line);
                }
            } catch (IOException e) {
                // the rank is gone
            }
        });
        return new SlurmRank(p, out);
    }

    /** Waits (up to 60 s) for a line of output that matches, and returns it. */
    String await(Predicate<String> match) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            for (String l : output) {
                if (match.test(l)) {
                    return l;
                }
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new AssertionError("no such line; output " + output);
    }
}
