package org.portals3j.launcher;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;

/**
 * A job of N ranks as threads of this JVM on the in-memory transport. Each rank thread (and every thread
 * it starts) sees its own {@link JobContext} through {@link JobRuntime#join()}, and its {@code System.out}
 * and {@code System.err} lines are prefixed with its rank. A rank that throws fails the job: the others are
 * interrupted and given the grace period to end.
 *
 * <p>Limits: the ranks share the JVM, so {@code System.exit} in any rank ends the whole job at once, and
 * static state is shared between ranks.
 */
final class InJvmJob {
    private final int size;
    private final String jobId;
    private final JobKey key;
    private final Map<String, String> options;
    private final ClassLoader loader;
    private final Method main;
    private final String[] args;
    private final Duration grace;
    private volatile boolean stopping;

    InJvmJob(int size, String jobId, JobKey key, Map<String, String> options, ClassLoader loader, Method main,
             List<String> args, Duration grace) {
        this.size = size;
        this.jobId = jobId;
        this.key = key;
        this.options = options;
        this.loader = loader;
        this.main = main;
        this.args = args.toArray(String[]::new);
        this.grace = grace;
    }

    int run() throws LauncherException, InterruptedException {
        Job job = Job.builder(size).id(jobId).key(key).build();
        List<Transport> endpoints;
        try {
            endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, options);
        } catch (TransportException e) {
            throw new LauncherException(String.valueOf(e.getMessage()));
        }
        PrintStream out = System.out;
        PrintStream err = System.err;
        RankOutput[] outs = new RankOutput[size];
        RankOutput[] errs = new RankOutput[size];
        for (int r = 0; r < size; r++) {
            outs[r] = new RankOutput(out, r);
            errs[r] = new RankOutput(err, r);
        }
        System.setOut(new PrintStream(new ByRank(out, outs), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new ByRank(err, errs), true, StandardCharsets.UTF_8));
        @Nullable Throwable[] failures = new Throwable[size];
        BlockingQueue<Integer> ended = new LinkedBlockingQueue<>();
        List<Thread> threads = new ArrayList<>(size);
        try {
            for (int r = 0; r < size; r++) {
                int rank = r;
                JobContext context = JobContext.inJvm(job, r, endpoints.get(r));
                Thread t = Thread.ofPlatform().name("rank-" + r).unstarted(() -> {
                    try {
                        JobRuntime.runAsRank(context, () -> {
                            try {
                                MainClasses.invoke(main, args.clone());
                            } catch (Throwable e) {
                                failures[rank] = e;
                                if (!(stopping && e instanceof InterruptedException)) {
                                    // (a rank interrupted because the job is stopping needs no stack trace)
                                    System.err.print("Exception in thread \"main\" ");
                                    e.printStackTrace();
                                }
                            }
                        });
                    } catch (Exception e) {
                        failures[rank] = e;
                    } finally {
                        ended.add(rank);
                    }
                });
                t.setContextClassLoader(loader);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            int status = 0;
            int running = size;
            long deadline = Long.MAX_VALUE;
            while (running > 0) {
                long wait = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                @Nullable Integer r = wait == Long.MAX_VALUE ? ended.take() : ended.poll(Math.max(0, wait),
                        TimeUnit.NANOSECONDS);
                if (r == null) {
                    err.println("portals run: " + running + " rank(s) did not stop within " + grace.toMillis() / 1000.0
                            + " s of being interrupted; ending the job");
                    break;
                }
                running--;
                @Nullable Throwable failure = failures[r];
                if (failure != null && status == 0) {
                    status = 1;
                    stopping = true;
                    err.println("portals run: rank " + r + " failed with " + firstLine(failure)
                            + (running > 0 ? "; stopping the job" : ""));
                    err.flush();
                    for (int o = 0; o < size; o++) {
                        if (o != r) {
                            threads.get(o).interrupt();
                        }
                    }
                    deadline = System.nanoTime() + grace.toNanos();
                }
            }
            return status;
        } finally {
            for (int r = 0; r < size; r++) {
                outs[r].finish();
                errs[r].finish();
            }
            System.setOut(out);
            System.setErr(err);
            endpoints.forEach(Transport::close);
        }
    }

    private static String firstLine(Throwable t) {
        String s = t.toString();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " ...";
    }

    /** Sends what a rank thread writes to that rank's {@link RankOutput}; other threads write through. */
    private static final class ByRank extends OutputStream {
        private final PrintStream direct;
        private final RankOutput[] ranks;

        ByRank(PrintStream direct, RankOutput[] ranks) {
            this.direct = direct;
            this.ranks = ranks;
        }

        private @Nullable RankOutput current() {
            @Nullable JobContext c = JobRuntime.currentInJvmRank();
            return c == null || c.rank() >= ranks.length ? null : ranks[c.rank()];
        }

        @Override
        public void write(int b) {
            @Nullable RankOutput r = current();
            if (r != null) {
                r.write(b);
            } else {
                direct.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            @Nullable RankOutput r = current();
            if (r != null) {
                r.write(b, off, len);
            } else {
                direct.write(b, off, len);
            }
        }

        @Override
        public void flush() {
            direct.flush();
        }
    }
}
