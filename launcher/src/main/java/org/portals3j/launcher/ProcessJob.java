package org.portals3j.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.RendezvousAddress;
import org.portals3j.runtime.RendezvousServer;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.TransportException;

/**
 * A job of N rank processes: serves their rendezvous on loopback, starts them, prefixes their output,
 * and ends the job when they have all ended or one of them failed (the others are sent SIGTERM, then
 * SIGKILL after the grace period). A shutdown hook stops the ranks if the launcher itself is stopped; if it
 * is killed outright, the ranks see their rendezvous connection close and end themselves.
 */
final class ProcessJob {
    private final int size;
    private final String jobId;
    private final JobKey key;
    private final String transport;
    private final Map<String, String> options;
    private final int port;
    private final RankCommand command;
    private final Duration grace;
    private final PidCheck pidCheck;
    private final RankBinding binding;
    private final List<Process> ranks = new ArrayList<>();
    private volatile boolean stopping;

    ProcessJob(int size, String jobId, JobKey key, String transport, Map<String, String> options, int port,
               RankCommand command, Duration grace, PidCheck pidCheck, RankBinding binding) {
        this.size = size;
        this.jobId = jobId;
        this.key = key;
        this.transport = transport;
        this.options = options;
        this.port = port;
        this.command = command;
        this.grace = grace;
        this.pidCheck = pidCheck;
        this.binding = binding;
    }

    /**
     * Whether the rendezvous admits rank {@code r} only from the process started as rank {@code r} (and its children).
     */
    enum PidCheck {
        /** Where Linux's /proc can tell who holds a connection (the default). */
        AUTO,
        /** Always: a usage error where /proc cannot tell. */
        ON,
        /** Never. */
        OFF
    }

    int run() throws LauncherException, InterruptedException {
        @Nullable RankProcessCheck check = null;
        if (pidCheck != PidCheck.OFF) {
            LinuxSockets sockets = LinuxSockets.system();
            Optional<String> unavailable = sockets.unavailableReason();
            if (unavailable.isEmpty()) {
                check = new RankProcessCheck(sockets, size, Duration.ofSeconds(10));
            } else if (pidCheck == PidCheck.ON) {
                throw new LauncherException("--pid-check on: the ranks' processes cannot be checked here: "
                        + unavailable.get() + "; run with --pid-check auto or off");
            }
        }
        RendezvousServer server;
        try {
            server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", port), jobId, size, key,
                    line -> System.err.println(line), check);
        } catch (TransportException e) {
            throw new LauncherException(e.getMessage() + " (--rendezvous-port), or leave --rendezvous-port out to"
                    + " take a free one");
        }
        Thread hook = new Thread(() -> {
            if (!stopping) {
                stopping = true;
                terminate(-1);
            }
        }, "portals-run-stop-ranks");
        Runtime.getRuntime().addShutdownHook(hook);
        List<Thread> pumps = new ArrayList<>();
        BlockingQueue<Integer> ended = new LinkedBlockingQueue<>();
        PrintStream out = System.out;
        PrintStream err = System.err;
        try {
            for (int r = 0; r < size; r++) {
                Process p;
                try {
                    p = start(r, server.address());
                } catch (IOException e) {
                    stopping = true;
                    terminate(-1);
                    throw new LauncherException("cannot start rank " + r + ": " + e.getMessage(), 1);
                }
                synchronized (ranks) {
                    ranks.add(p);
                }
                if (check != null) {
                    check.started(r, p.toHandle());
                }
                int rank = r;
                p.getOutputStream().close(); // ranks read no stdin
                pumps.add(Thread.ofPlatform().name("rank-" + r + "-stdout")
                        .start(() -> new RankOutput(out, rank).pump(p.getInputStream())));
                pumps.add(Thread.ofPlatform().name("rank-" + r + "-stderr")
                        .start(() -> new RankOutput(err, rank).pump(p.getErrorStream())));
                p.onExit().thenRun(() -> ended.add(rank));
            }
            int status = 0;
            int running = size;
            @Nullable Thread stopper = null;
            while (running > 0) {
                int r = ended.take();
                running--;
                int rankStatus = ranks.get(r).exitValue();
                if (rankStatus != 0 && status == 0 && !stopping) {
                    status = rankStatus;
                    stopping = true;
                    System.err.println("portals run: rank " + r + " " + Signals.describe(rankStatus)
                            + (running > 0 ? "; stopping the job" : ""));
                    System.err.flush();
                    stopper = Thread.ofPlatform().name("portals-run-stop").start(() -> terminate(r));
                }
            }
            if (stopper != null) {
                stopper.join();
            }
            for (Thread pump : pumps) {
                pump.join(5_000); // a rank's own child may hold its pipe open: do not wait for it forever
            }
            return status;
        } catch (IOException e) {
            throw new LauncherException("cannot start the ranks: " + e.getMessage(), 1);
        } finally {
            server.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs
            }
        }
    }

    private Process start(int rank, RendezvousAddress rendezvous) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(binding.command(rank, command.command()));
        Map<String, String> env = pb.environment();
        env.putAll(command.environment());
        env.put(JobRuntime.RANK, Integer.toString(rank));
        env.put(JobRuntime.SIZE, Integer.toString(size));
        env.put(JobRuntime.LOCAL_SIZE, Integer.toString(size)); // every rank runs on this host
        env.put(JobRuntime.RENDEZVOUS, rendezvous.toString());
        env.put(JobRuntime.JOB_ID, jobId);
        env.put(JobRuntime.JOB_KEY, key.toHex());
        env.put(JobRuntime.TRANSPORT, transport);
        env.put(JobRuntime.TRANSPORT_OPTIONS, options.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",")));
        return pb.start();
    }

    /** SIGTERM to every rank but {@code except} (and their children), then SIGKILL to those left after the grace. */
    private void terminate(int except) {
        List<ProcessHandle> targets = new ArrayList<>();
        synchronized (ranks) {
            for (int r = 0; r < ranks.size(); r++) {
                if (r != except && ranks.get(r).isAlive()) {
                    ProcessHandle h = ranks.get(r).toHandle();
                    h.descendants().forEach(targets::add);
                    targets.add(h);
                }
            }
        }
        targets.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : targets) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    h.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (Exception e) {
                // still alive: killed below
            }
        }
        targets.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
