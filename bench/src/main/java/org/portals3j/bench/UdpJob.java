package org.portals3j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.RendezvousAddress;
import org.portals3j.runtime.RendezvousServer;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.TransportException;

/**
 * A 2-rank job on udp, each rank a process started from this JVM with the job's environment around a rendezvous
 * server of its own, as {@code portals run -n 2} starts one: a C program through libportals3 or a Java main class.
 * Optionally each rank is bound to one CPU through {@code taskset --cpu-list}, as {@code portals run} binds ranks.
 */
final class UdpJob {
    static final String TASKSET = "taskset";

    private UdpJob() {
    }

    /**
     * The CPUs to bind rank 0 and rank 1 to, as {@code portals run --bind-to core} chooses them (the first two this
     * process may run on), or null when it cannot: fewer than 2 CPUs allowed, no {@code taskset} on PATH, or no way to
     * read the mask; {@code why} gets the reason.
     */
    static int[] bindingCpus(StringBuilder why) {
        if (CProgram.onPath(TASKSET) == null) {
            why.append("taskset (util-linux) is not on PATH");
            return null;
        }
        String unavailable = CpuAffinity.unavailableReason();
        if (unavailable != null) {
            why.append(unavailable);
            return null;
        }
        List<Integer> allowed = CpuAffinity.allowed();
        if (allowed.size() < 2) {
            why.append("this process may run on ").append(allowed.size()).append(" CPU only");
            return null;
        }
        return new int[] {allowed.get(0), allowed.get(1)};
    }

    /**
     * Runs {@code command} followed by {@code args} as ranks 0 and 1; returns rank 0's standard output, or throws with
     * it when a rank fails or outlives {@code timeoutMinutes}.
     *
     * @param nativeProgram the command is a C program through libportals3: it is told this JVM's class path and home
     * @param cpus          CPUs for rank 0 and rank 1 (started through taskset), or null: unbound
     * @param work          where the ranks' output files go
     */
    static String run(List<String> command, List<String> args, boolean nativeProgram, int[] cpus, Path work,
                      long timeoutMinutes) throws IOException, InterruptedException, TransportException {
        String jobId = "bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        JobKey key = JobKey.random();
        try (RendezvousServer server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), jobId, 2, key)) {
            List<Process> ranks = new ArrayList<>();
            List<Path> outputs = new ArrayList<>();
            try {
                for (int rank = 0; rank < 2; rank++) {
                    List<String> cmd = new ArrayList<>();
                    if (cpus != null) {
                        cmd.addAll(List.of(TASKSET, "--cpu-list", Integer.toString(cpus[rank])));
                    }
                    cmd.addAll(command);
                    cmd.addAll(args);
                    Path out = work.resolve("rank" + rank + ".out");
                    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                            .redirectError(ProcessBuilder.Redirect.INHERIT);
                    Map<String, String> env = pb.environment();
                    env.keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("PORTALS3J_"));
                    env.put(JobRuntime.RANK, Integer.toString(rank));
                    env.put(JobRuntime.SIZE, "2");
                    env.put(JobRuntime.RENDEZVOUS, server.address().toString());
                    env.put(JobRuntime.JOB_ID, jobId);
                    env.put(JobRuntime.JOB_KEY, key.toHex());
                    env.put(JobRuntime.TRANSPORT, "udp");
                    if (nativeProgram) {
                        env.put("PORTALS3J_CLASSPATH", System.getProperty("java.class.path"));
                        env.put("PORTALS3J_JAVA_HOME", System.getProperty("java.home"));
                    }
                    ranks.add(pb.start());
                    outputs.add(out);
                }
                for (Process p : ranks) {
                    if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES) || p.exitValue() != 0) {
                        throw new IllegalStateException(command.get(0) + " failed; rank 0 said: "
                                + Files.readString(outputs.get(0), StandardCharsets.UTF_8));
                    }
                }
            } finally {
                ranks.forEach(Process::destroyForcibly);
            }
            return Files.readString(outputs.get(0), StandardCharsets.UTF_8);
        }
    }
}
