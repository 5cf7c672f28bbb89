package org.portals3j.runtime;

import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.Oversubscription;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.internal.OsUser;

/**
 * How a rank's {@code main} joins its job: {@link #join()} returns its {@link JobContext} (job with the
 * peer table, rank, size, open transport endpoint); {@link #bootstrap()} stops before opening the
 * endpoint. Where the job comes from, in this order (see the package documentation for the details):
 * <ol>
 * <li>the in-JVM runner's per-rank context ({@link #runAsRank}; {@code portals run --transport inmem});</li>
 * <li>{@code portals run}'s environment: {@code PORTALS_RANK}, {@code PORTALS_SIZE}, {@code PORTALS_RENDEZVOUS},
 *     {@code PORTALS_JOB_ID}, {@code PORTALS_JOB_KEY}, {@code PORTALS_TRANSPORT},
 *     {@code PORTALS_TRANSPORT_OPTIONS};</li>
 * <li>Open MPI ({@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}) or Slurm ({@code SLURM_PROCID},
 *     {@code SLURM_NTASKS}), with {@code PORTALS_RENDEZVOUS} and {@code PORTALS_JOB_KEY}: rank 0 serves the
 *     rendezvous on that address (under Slurm {@code :PORT} names that port on the first node of
 *     {@code SLURM_STEP_NODELIST}, where task 0 runs); rank 0 of a job across hosts refuses a loopback address;</li>
 * <li>none of these: a job of one rank on {@code inmem}.</li>
 * </ol>
 * Every rank of a multi-process job publishes its uid through the rendezvous and the peer table is built
 * from them (rank {@code r}: nid {@code r}, pid {@link Job#DEFAULT_PID}). The rank stays connected to the
 * rendezvous while it runs; if that connection drops without the rank leaving ({@code portals run} or rank 0
 * died), the rank prints one line and exits with status {@value #LOST_RENDEZVOUS_STATUS}.
 */
public final class JobRuntime {
    public static final String RANK = "PORTALS_RANK";
    public static final String SIZE = "PORTALS_SIZE";
    public static final String RENDEZVOUS = "PORTALS_RENDEZVOUS";
    public static final String RENDEZVOUS_TIMEOUT = "PORTALS_RENDEZVOUS_TIMEOUT";
    public static final String JOB_ID = "PORTALS_JOB_ID";
    public static final String JOB_KEY = "PORTALS_JOB_KEY";
    public static final String TRANSPORT = "PORTALS_TRANSPORT";
    public static final String TRANSPORT_OPTIONS = "PORTALS_TRANSPORT_OPTIONS";
    public static final String IDLE = "PORTALS_IDLE";
    /** How many ranks of the job run on this host (set by {@code portals run}); decides {@link Oversubscription}. */
    public static final String LOCAL_SIZE = "PORTALS_LOCAL_SIZE";

    /** The transport of a multi-process job when {@code PORTALS_TRANSPORT} is not set. */
    public static final String DEFAULT_TRANSPORT = "udp";
    /** How long a rank tries to reach the rendezvous, and waits for its peers, by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** The exit status of a rank whose rendezvous connection dropped (its launcher or rank 0 died). */
    public static final int LOST_RENDEZVOUS_STATUS = 1;
    /** The rendezvous key under which every rank publishes its user id. */
    public static final String UID_KEY = "uid";

    private static final InheritableThreadLocal<@Nullable JobContext> IN_JVM = new InheritableThreadLocal<>();
    private static final AtomicBoolean SHUTTING_DOWN = new AtomicBoolean();
    private static final Object PROCESS_LOCK = new Object();
    private static @Nullable JobBootstrap processBootstrap;

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> SHUTTING_DOWN.set(true), "portals-shutdown-flag"));
        } catch (IllegalStateException e) {
            SHUTTING_DOWN.set(true);
        }
    }

    private JobRuntime() {
    }

    /** The body of one in-JVM rank. */
    @FunctionalInterface
    public interface RankBody {
        void run() throws Exception;
    }

    /**
     * Joins this rank's job and opens its endpoint: {@code bootstrap().open()}. Repeated calls (in one
     * process, or one in-JVM rank) return the same context.
     *
     * @throws TransportException with a one-line message saying what to fix (bad environment, unreachable
     *         or refusing rendezvous, unknown transport, ...)
     */
    public static JobContext join() throws TransportException {
        return bootstrap().open();
    }

    /**
     * Finds this rank's job and builds its peer table, without opening a transport endpoint. Repeated
     * calls return the same bootstrap (per process, or per in-JVM rank).
     */
    public static JobBootstrap bootstrap() throws TransportException {
        @Nullable JobContext inJvm = IN_JVM.get();
        if (inJvm != null) {
            return inJvm.bootstrap();
        }
        synchronized (PROCESS_LOCK) {
            JobBootstrap b = processBootstrap;
            if (b == null) {
                b = bootstrap(System.getenv());
                processBootstrap = b;
            }
            return b;
        }
    }

    /**
     * Bootstraps from the given environment (sources 2-4 above; not cached, for tools and tests). The caller
     * closes the result.
     */
    public static JobBootstrap bootstrap(Map<String, String> env) throws TransportException {
        Objects.requireNonNull(env, "env");
        if (has(env, RANK)) {
            return fromPortalsRun(env);
        }
        if (has(env, "OMPI_COMM_WORLD_RANK")) {
            String jobId = env.getOrDefault(JOB_ID, "ompi-" + env.getOrDefault("OMPI_MCA_ess_base_jobid",
                    env.getOrDefault("PMIX_NAMESPACE", "job")));
            return fromScheduler(env, JobSource.OPEN_MPI, "Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                    jobId, "mpirun", null, openMpiSpread(env));
        }
        if (has(env, "SLURM_PROCID")) {
            String jobId = env.getOrDefault(JOB_ID, "slurm-" + env.getOrDefault("SLURM_JOB_ID", "job")
                    + (has(env, "SLURM_STEP_ID") ? "." + env.get("SLURM_STEP_ID") : ""));
            @Nullable String nodes = has(env, "SLURM_STEP_NODELIST") ? env.get("SLURM_STEP_NODELIST")
                    : env.get("SLURM_JOB_NODELIST");
            return fromScheduler(env, JobSource.SLURM, "Slurm", "SLURM_PROCID", "SLURM_NTASKS", jobId, "srun", nodes,
                    slurmSpread(env));
        }
        Job job = Job.builder(1).id("singleton-" + ProcessHandle.current().pid()).build();
        return new JobBootstrap(JobSource.SINGLETON, job, 0, "inmem", Map.of(), idle(env),
                oversubscribed(env, 1, Runtime.getRuntime().availableProcessors()), LocalRendezvous.of(job), null,
                null, DEFAULT_TIMEOUT, true);
    }

    /**
     * Runs {@code body} as rank {@code context.rank()} of an in-JVM job: {@link #join()} and
     * {@link #bootstrap()} in this thread, and in every thread it starts, return {@code context}.
     */
    public static void runAsRank(JobContext context, RankBody body) throws Exception {
        Objects.requireNonNull(context, "context");
        @Nullable JobContext previous = IN_JVM.get();
        IN_JVM.set(context);
        try {
            body.run();
        } finally {
            IN_JVM.set(previous);
        }
    }

    /** The in-JVM rank context of the calling thread, if it is (a descendant of) an in-JVM rank thread. */
    public static @Nullable JobContext currentInJvmRank() {
        return IN_JVM.get();
    }

    private static JobBootstrap fromPortalsRun(Map<String, String> env) throws TransportException {
        int size = positive(env, SIZE,
                "portals run sets it; when starting ranks by hand set it to the number of ranks");
        int rank = rankIn(env, RANK, size, SIZE);
        RendezvousAddress at = address(env, "portals run sets it; when starting ranks by hand set it to"
                + " host:port of the rendezvous");
        JobKey key = key(env, "portals run sets it; when starting ranks by hand give every rank the same key");
        String jobId = env.getOrDefault(JOB_ID, "portals");
        return join(env, JobSource.PORTALS_RUN, jobId, rank, size, at, key, false);
    }

    /**
     * @param nodeList the scheduler's host list of the job (rank 0 on its first host), which a port-only
     *                 {@code PORTALS_RENDEZVOUS} ({@code :7010}) completes; null if it gives none
     * @param spread   why the job is known to span several hosts, or null if it is not or that is unknown
     */
    private static JobBootstrap fromScheduler(Map<String, String> env, JobSource source, String scheduler,
                                              String rankVar, String sizeVar, String jobId, String starter,
                                              @Nullable String nodeList, @Nullable String spread)
            throws TransportException {
        int size = positive(env, sizeVar, scheduler + " sets it for every task");
        int rank = rankIn(env, rankVar, size, sizeVar);
        if (!has(env, RENDEZVOUS)) {
            throw new TransportException("running as rank " + rank + " of " + size + " under " + scheduler + " ("
                    + rankVar + "), but " + RENDEZVOUS + " is not set: export " + RENDEZVOUS
                    + "=<host of rank 0>:<free port> and " + JOB_KEY + "=$(openssl rand -hex 32) before " + starter);
        }
        RendezvousAddress at = schedulerAddress(env, scheduler, starter, nodeList);
        JobKey key = key(env, "under " + scheduler + " every rank needs the same key: export " + JOB_KEY
                + "=$(openssl rand -hex 32) before " + starter);
        if (rank == 0 && spread != null) {
            requireReachable(at, spread);
        }
        return join(env, source, jobId, rank, size, at, key, rank == 0);
    }

    /** {@code PORTALS_RENDEZVOUS}, where {@code :PORT} means that port on the first host of {@code nodeList}. */
    private static RendezvousAddress schedulerAddress(Map<String, String> env, String scheduler, String starter,
                                                      @Nullable String nodeList) throws TransportException {
        String v = require(env, RENDEZVOUS, "");
        if (!v.startsWith(":")) {
            return address(env, "");
        }
        if (nodeList == null || nodeList.isBlank()) {
            throw new TransportException(RENDEZVOUS + "='" + v + "' gives only a port, and " + scheduler
                    + " does not say where rank 0 runs: give its host too (" + RENDEZVOUS + "=<host of rank 0>" + v
                    + ", passed to every rank by " + starter + ")");
        }
        String host;
        try {
            host = SlurmHostList.first(nodeList);
        } catch (IllegalArgumentException e) {
            throw new TransportException(RENDEZVOUS + "='" + v + "' gives only a port, and the host of rank 0 cannot"
                    + " be taken from the node list: " + e.getMessage() + "; give it (" + RENDEZVOUS
                    + "=<host of rank 0>" + v + ")");
        }
        try {
            return RendezvousAddress.parse(host + v);
        } catch (IllegalArgumentException e) {
            throw new TransportException(String.valueOf(e.getMessage()));
        }
    }

    /**
     * Refuses to serve a job that spans hosts on a loopback address (a host name that resolves to 127.0.1.1, as
     * Debian's /etc/hosts has it), which the ranks on the other hosts could never reach.
     */
    private static void requireReachable(RendezvousAddress at, String spread) throws TransportException {
        InetAddress address;
        try {
            address = InetAddress.getByName(at.host());
        } catch (UnknownHostException e) {
            return; // serving says that the host is unknown
        }
        if (address.isLoopbackAddress()) {
            throw new TransportException("the rendezvous " + at + " is a loopback address on rank 0's host ("
                    + at.host() + " is " + address.getHostAddress() + "), but " + spread + ": the ranks on the"
                    + " other hosts cannot reach it; name rank 0's host by an address they reach (its DNS name or"
                    + " IP address; /etc/hosts may map the host name to 127.0.1.1)");
        }
    }

    /** Why a Slurm step spans several nodes ({@code SLURM_STEP_NUM_NODES}, else {@code SLURM_NNODES}), or null. */
    private static @Nullable String slurmSpread(Map<String, String> env) {
        for (String name : new String[] {"SLURM_STEP_NUM_NODES", "SLURM_NNODES"}) {
            @Nullable String v = env.get(name);
            if (v != null && !v.isBlank()) {
                try {
                    int nodes = Integer.parseInt(v.trim());
                    return nodes > 1 ? "the job spans " + nodes + " nodes (" + name + ")" : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** Why an Open MPI job spans several hosts (fewer processes on this host than in the job), or null. */
    private static @Nullable String openMpiSpread(Map<String, String> env) {
        @Nullable String local = env.get("OMPI_COMM_WORLD_LOCAL_SIZE");
        @Nullable String all = env.get("OMPI_COMM_WORLD_SIZE");
        if (local == null || all == null) {
            return null;
        }
        try {
            int here = Integer.parseInt(local.trim());
            int size = Integer.parseInt(all.trim());
            return here < size ? "only " + here + " of its " + size + " processes run on this host"
                    + " (OMPI_COMM_WORLD_LOCAL_SIZE)" : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static JobBootstrap join(Map<String, String> env, JobSource source, String jobId, int rank, int size,
                                     RendezvousAddress at, JobKey key, boolean serve) throws TransportException {
        Duration timeout = timeout(env);
        String transport = env.getOrDefault(TRANSPORT, DEFAULT_TRANSPORT).trim();
        Map<String, String> options = options(env.getOrDefault(TRANSPORT_OPTIONS, ""));
        IdleMode idle = idle(env);
        boolean oversubscribed = oversubscribed(env, ranksOnHost(env), Runtime.getRuntime().availableProcessors());
        @Nullable RendezvousServer server = null;
        TcpRendezvous client;
        // Until the bootstrap has returned, a lost connection is reported by the bootstrap's own exception.
        AtomicBoolean joined = new AtomicBoolean();
        try {
            if (serve) {
                server = RendezvousServer.start(at, jobId, size, key);
            }
            client = TcpRendezvous.connect(at, jobId, rank, size, key, timeout, () -> {
                if (joined.get()) {
                    lost(rank);
                }
            });
        } catch (TransportException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
        JobBootstrap bootstrap;
        try {
            client.publish(rank, UID_KEY, Integer.toString(OsUser.uid()));
            Job.Builder builder = Job.builder(size).id(jobId).key(key);
            for (int r = 0; r < size; r++) {
                String uid = r == rank ? Integer.toString(OsUser.uid()) : client.lookup(r, UID_KEY, timeout);
                try {
                    builder.uid(r, Integer.parseInt(uid));
                } catch (NumberFormatException e) {
                    throw new TransportException("rank " + r + " published a uid that is not a number: '" + uid + "'");
                }
            }
            bootstrap = new JobBootstrap(source, builder.build(), rank, transport, options, idle, oversubscribed,
                    client, client, server, timeout, true);
        } catch (TransportException | RuntimeException e) {
            client.close();
            if (server != null) {
                server.close();
            }
            throw e;
        }
        joined.set(true);
        if (!client.isConnected()) {
            bootstrap.close();
            throw new TransportException("rank " + rank + " lost its connection to the rendezvous at " + at
                    + " while joining: portals run or rank 0 is gone");
        }
        if (server != null) {
            JobBootstrap b = bootstrap;
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(b::closeAtShutdown, "portals-rendezvous-drain"));
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
        return bootstrap;
    }

    /** The connection to portals run or rank 0 dropped: end this rank, so that no orphan is left behind. */
    private static void lost(int rank) {
        if (SHUTTING_DOWN.get()) {
            return;
        }
        System.err.println("portals: rank " + rank + " lost its rendezvous connection (portals run or rank 0 is gone);"
                + " ending this rank");
        System.err.flush();
        Thread.ofPlatform().daemon().name("portals-halt").start(() -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                // halt now
            }
            Runtime.getRuntime().halt(LOST_RENDEZVOUS_STATUS);
        });
        Thread.ofPlatform().name("portals-exit").start(() -> System.exit(LOST_RENDEZVOUS_STATUS));
    }

    private static boolean has(Map<String, String> env, String name) {
        @Nullable String v = env.get(name);
        return v != null && !v.isBlank();
    }

    private static String require(Map<String, String> env, String name, String hint) throws TransportException {
        @Nullable String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new TransportException(name + " is not set" + (hint.isEmpty() ? "" : ": " + hint));
        }
        return v.trim();
    }

    private static int positive(Map<String, String> env, String name, String hint) throws TransportException {
        String v = require(env, name, hint);
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new TransportException(name + "='" + v + "' is not a number of ranks (1 or more)");
    }

    private static int rankIn(Map<String, String> env, String name, int size, String sizeName)
            throws TransportException {
        String v = require(env, name, "");
        try {
            int r = Integer.parseInt(v);
            if (r >= 0 && r < size) {
                return r;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new TransportException(name + "='" + v + "' is not a rank of the job: it must be 0.." + (size - 1)
                + " (" + sizeName + "=" + size + ")");
    }

    private static RendezvousAddress address(Map<String, String> env, String hint) throws TransportException {
        String v = require(env, RENDEZVOUS, hint);
        try {
            return RendezvousAddress.parse(v);
        } catch (IllegalArgumentException e) {
            throw new TransportException(String.valueOf(e.getMessage()));
        }
    }

    private static JobKey key(Map<String, String> env, String hint) throws TransportException {
        String v = require(env, JOB_KEY, hint);
        try {
            return JobKey.fromHex(v);
        } catch (IllegalArgumentException e) {
            throw new TransportException(JOB_KEY + " is not a valid key: " + e.getMessage());
        }
    }

    private static Duration timeout(Map<String, String> env) throws TransportException {
        @Nullable String v = env.get(RENDEZVOUS_TIMEOUT);
        if (v == null || v.isBlank()) {
            return DEFAULT_TIMEOUT;
        }
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1).trim();
        }
        try {
            BigDecimal seconds = new BigDecimal(t);
            if (seconds.signum() > 0) {
                return Duration.ofMillis(Math.max(1, seconds.movePointRight(3).longValue()));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // below
        }
        throw new TransportException(RENDEZVOUS_TIMEOUT + "='" + v + "' is not a number of seconds (e.g. 60 or 0.5)");
    }

    private static IdleMode idle(Map<String, String> env) throws TransportException {
        @Nullable String v = env.get(IDLE);
        if (v == null || v.isBlank()) {
            return IdleMode.BACKOFF;
        }
        try {
            return IdleMode.parse(v.trim());
        } catch (IllegalArgumentException e) {
            throw new TransportException(IDLE + ": " + e.getMessage());
        }
    }

    /**
     * Whether the waits of a rank sharing this host of {@code cores} cores with {@code ranksOnHost} ranks give their
     * core away early: the override ({@link Oversubscription#setting}) decides, by default when the ranks
     * outnumber the cores.
     */
    static boolean oversubscribed(Map<String, String> env, int ranksOnHost, int cores) throws TransportException {
        try {
            return Oversubscription.setting(env, System.getProperties()).decide(ranksOnHost, cores);
        } catch (IllegalArgumentException e) {
            throw new TransportException(String.valueOf(e.getMessage()));
        }
    }

    /**
     * How many ranks of the job run on this host, as its launcher says: {@code PORTALS_LOCAL_SIZE}
     * ({@code portals run}), {@code OMPI_COMM_WORLD_LOCAL_SIZE} (Open MPI), {@code SLURM_NTASKS_PER_NODE} (Slurm,
     * when the job gave it); 1 when none does (so {@link Oversubscription#AUTO} never decides oversubscribed).
     */
    static int ranksOnHost(Map<String, String> env) throws TransportException {
        if (has(env, LOCAL_SIZE)) {
            return positive(env, LOCAL_SIZE, "");
        }
        for (String name : new String[] {"OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"}) {
            @Nullable String v = env.get(name);
            if (v != null && !v.isBlank()) {
                try {
                    int n = Integer.parseInt(v.trim());
                    if (n >= 1) {
                        return n;
                    }
                } catch (NumberFormatException e) {
                    // not a count (Slurm may write 2(x3)): look at the next
                }
            }
        }
        return 1;
    }

    /**
     * Parses {@code k=v,k=v} (the form of {@code PORTALS_TRANSPORT_OPTIONS} and of {@code portals run
     * --transport-option}).
     *
     * @throws TransportException naming the entry that is not {@code key=value}
     */
    public static Map<String, String> options(String text) throws TransportException {
        Map<String, String> options = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new TransportException(TRANSPORT_OPTIONS + " entry '" + e + "' is not key=value"
                        + " (write k=v,k=v)");
            }
            options.put(e.substring(0, eq).trim(), e.substring(eq + 1).trim());
        }
        return options;
    }

    /** {@code 60 s}, {@code 0.5 s}: a duration as users write {@code PORTALS_RENDEZVOUS_TIMEOUT}. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString() + " s";
    }
}
