package org.portals3j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.RendezvousAddress;
import org.portals3j.runtime.RendezvousServer;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.Oversubscription;
import org.portals3j.transport.TransportException;

/**
 * Starts a job of N ranks as separate JVM processes running a main class of this module on a transport, with the job's
 * environment ({@code PORTALS_RANK}, {@code PORTALS_SIZE}, a rendezvous server of this JVM, ...) as
 * {@code portals run} gives it, and returns rank 0's output. As {@code ShimPingPong} starts its Java ranks.
 */
final class MpiProcesses {
    private static final long TIMEOUT_MINUTES = 10;

    private MpiProcesses() {
    }

    static String run(String transport, int size, Class<?> main, List<String> args)
            throws IOException, InterruptedException, TransportException {
        String jobId = "mpiosu-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        JobKey key = JobKey.random();
        Path work = Files.createTempDirectory("mpiosu");
        List<Process> ranks = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        try (RendezvousServer server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), jobId, size,
                key)) {
            for (int rank = 0; rank < size; rank++) {
                List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                        System.getProperty("java.class.path")));
                @Nullable String oversubscribed = System.getProperty(Oversubscription.PROPERTY);
                if (oversubscribed != null) { // this run's override, for the ranks too
                    cmd.add(1, "-D" + Oversubscription.PROPERTY + "=" + oversubscribed);
                }
                cmd.add(main.getName());
                cmd.addAll(args);
                Path out = work.resolve("rank" + rank + ".out");
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
                Map<String, String> env = pb.environment();
                env.keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("PORTALS3J_"));
                env.put(JobRuntime.RANK, Integer.toString(rank));
                env.put(JobRuntime.SIZE, Integer.toString(size));
                env.put(JobRuntime.LOCAL_SIZE, Integer.toString(size));
                env.put(JobRuntime.RENDEZVOUS, server.address().toString());
                env.put(JobRuntime.JOB_ID, jobId);
                env.put(JobRuntime.JOB_KEY, key.toHex());
                env.put(JobRuntime.TRANSPORT, transport);
                ranks.add(pb.start());
                outputs.add(out);
            }
            for (Process p : ranks) {
                if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES) || p.exitValue() != 0) {
                    throw new IllegalStateException(main.getSimpleName() + " failed; rank 0 said: "
                            + Files.readString(outputs.get(0), StandardCharsets.UTF_8));
                }
            }
            return Files.readString(outputs.get(0), StandardCharsets.UTF_8);
        } finally {
            ranks.forEach(Process::destroyForcibly);
            for (Path out : outputs) {
                Files.deleteIfExists(out);
            }
            Files.deleteIfExists(work);
        }
    }
}
