package org.portals3j.shim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.RendezvousAddress;
import org.portals3j.runtime.RendezvousServer;
import org.portals3j.transport.JobKey;

/**
 * Runs a compiled C program as a job of N real processes on a transport (udp unless told), as {@code portals run}
 * does: a rendezvous on loopback, the {@code PORTALS_*} environment per rank, and
 * {@code PORTALS3J_CLASSPATH}/{@code PORTALS3J_JAVA_HOME} for the engine each process starts. (The
 * launcher module, which depends on this one, runs the same programs through {@code portals run}.)
 */
final class CJob {
    private CJob() {
    }

    /** One rank's exit status and output. */
    record Rank(int rank, int status, String out, String err) {
        String describe() {
            return "rank " + rank + " exited with " + status + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
        }
    }

    /**
     * Every rank's status and output, the failed ranks first: a rank that fails first often makes the others fail
     * after it (they wait for its messages, or its exit finalises their engine's peer), and the cause is in its own
     * output, whichever rank a test looks at first.
     */
    static String describe(List<Rank> job) {
        StringBuilder text = new StringBuilder();
        job.stream().sorted(Comparator.comparing((Rank r) -> r.status() == 0).thenComparingInt(Rank::rank))
                .forEach(r -> text.append(r.describe()).append('\n'));
        return text.toString();
    }

    /** Removes what would tie a child process to another job, or to another engine. */
    static void cleanEnvironment(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("PORTALS3J_") || k.startsWith("OMPI_")
                || k.startsWith("SLURM_"));
    }

    /** The environment that points libportals3 at this JVM's JDK and classes. */
    static Map<String, String> engine() {
        return Map.of("PORTALS3J_CLASSPATH", System.getProperty("java.class.path"),
                "PORTALS3J_JAVA_HOME", System.getProperty("java.home"));
    }

    /** Runs {@code program} as {@code size} ranks on udp; every rank is waited for (2 minutes at most). */
    static List<Rank> run(Path program, int size, String... args) throws Exception {
        return run(program, size, JobTransport.UDP, args);
    }

    /** Runs {@code program} as {@code size} ranks on {@code transport}; every rank is waited for (2 minutes). */
    static List<Rank> run(Path program, int size, JobTransport transport, String... args) throws Exception {
        String jobId = "ctest-" + program.getFileName() + "-" + ProcessHandle.current().pid();
        JobKey key = JobKey.random();
        List<Rank> ranks = new ArrayList<>();
        try (RendezvousServer server =
                RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), jobId, size, key)) {
            List<Process> processes = new ArrayList<>();
            List<Path[]> logs = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(program.toString());
                cmd.addAll(List.of(args));
                Path out = CBuild.OUT.resolve(program.getFileName() + ".rank" + r + ".out");
                Path err = CBuild.OUT.resolve(program.getFileName() + ".rank" + r + ".err");
                ProcessBuilder pb = new ProcessBuilder(cmd).directory(CBuild.OUT.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                Map<String, String> env = pb.environment();
                cleanEnvironment(env);
                env.putAll(engine());
                env.put(JobRuntime.RANK, Integer.toString(r));
                env.put(JobRuntime.SIZE, Integer.toString(size));
                env.put(JobRuntime.RENDEZVOUS, server.address().toString());
                env.put(JobRuntime.JOB_ID, jobId);
                env.put(JobRuntime.JOB_KEY, key.toHex());
                env.put(JobRuntime.TRANSPORT, transport.transportName());
                env.put(JobRuntime.TRANSPORT_OPTIONS, transport.options());
                processes.add(pb.start());
                logs.add(new Path[] {out, err});
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            for (int r = 0; r < size; r++) {
                Process p = processes.get(r);
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    processes.forEach(Process::destroyForcibly);
                    p.waitFor();
                }
                ranks.add(new Rank(r, p.exitValue(), Files.readString(logs.get(r)[0], StandardCharsets.UTF_8),
                        Files.readString(logs.get(r)[1], StandardCharsets.UTF_8)));
            }
        }
        return ranks;
    }

    /** Runs {@code program} alone (a job of one, no launcher), with {@code env} added; 2 minutes at most. */
    static CBuild.Outcome alone(Path program, Map<String, String> env, String... args) throws IOException,
            InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(program.toString());
        cmd.addAll(List.of(args));
        return CBuild.run(cmd, env, CBuild.OUT);
    }
}
