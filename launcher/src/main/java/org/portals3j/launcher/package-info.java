/**
 * The {@code portals} command line; {@code portals run} starts jobs. The rank side is
 * {@link org.portals3j.runtime.JobRuntime}: a rank's {@code main} calls {@code JobRuntime.join()} and gets its
 * job, rank, size and open transport endpoint, however it was started.
 *
 * <h2>{@code portals run -n N [--transport NAME] [-cp PATH] -- MAINCLASS|PROGRAM [ARGS]}</h2>
 * <ul>
 * <li><b>Process mode</b> (every transport but {@code inmem}; the default is {@code udp}): the launcher serves
 *     the job's TCP rendezvous on {@code 127.0.0.1} (any free port, or {@code --rendezvous-port}), generates
 *     a job id and a fresh {@link org.portals3j.transport.JobKey} (or uses {@code PORTALS_JOB_KEY} from its own
 *     environment), and starts N JVMs: {@code java --enable-native-access=ALL-UNNAMED [--jvm-option ...]
 *     -cp <launcher class path>:<-cp> org.portals3j.launcher.RankMain MAINCLASS ARGS}. {@link RankMain}
 *     joins the job (rendezvous, peer table) before the user's main runs. Ranks read no stdin.</li>
 * <li><b>In-JVM mode</b> ({@code --transport inmem}): N threads of the launcher's JVM, each running MAINCLASS's
 *     main with its own context ({@code JobRuntime.join()} in the rank thread and every thread it starts
 *     returns that rank's context). Limits: {@code System.exit} in any rank ends the whole job at once (with
 *     that status, without the launcher's report); static state is shared by the ranks; a rank that throws
 *     fails the job, and the others are interrupted and get {@code --grace} seconds to end.</li>
 * <li><b>Native programs</b> ({@code portals run -n N -- ./prog ARGS}; a name with a {@code /}, or a name
 *     on {@code PATH} that is no class): N processes of the program, a C program linked with libportals3.
 *     Besides the {@code PORTALS_*} variables each gets what libportals3 needs to start the Java engine
 *     inside it: {@code PORTALS3J_CLASSPATH} (the launcher's class path, then {@code -cp}),
 *     {@code PORTALS3J_JAVA_HOME} (the launcher's {@code java.home}) and {@code PORTALS3J_JVM_OPTIONS} (the
 *     {@code --jvm-option}s). Not with {@code --transport inmem} (a usage error: one process per rank is
 *     needed). A program joins the job at its first Portals call, so until then it is not tied to the
 *     rendezvous; the launcher still stops it when another rank fails.</li>
 * <li><b>MPI programs</b>: the launcher's class path carries the MPI layer (package {@code mpi}, module
 *     {@code layers/mpi}), so a program compiled against Open MPI's Java API runs with
 *     {@code portals run -n N -cp app.jar -- Main} in either mode without the layer's jar on {@code -cp};
 *     {@code MPI.Init} joins the rank's job.</li>
 * <li>Every line a rank writes is prefixed with its rank: {@code [2] hello} (stdout to stdout, stderr to
 *     stderr; a last line without newline gets one).</li>
 * </ul>
 *
 * <h2>Where the ranks run: {@code --bind-to core|none}</h2>
 * As {@code mpirun} places rank processes (Open MPI 4.1 binds each of 2 ranks to a core by default, and nothing
 * when there are more ranks than cores) and {@code srun --cpu-bind=cores} does: with {@code core}, local rank r runs
 * on the r-th
 * CPU of the launcher's own mask (its {@code Cpus_allowed_list} in {@code /proc/self/status}, the set
 * {@code sched_getaffinity} returns, which {@code taskset} or a batch system may have narrowed); with {@code none}
 * every rank has the whole mask. The default is {@code core} when the ranks are at most the CPUs of that mask and
 * {@code taskset} is on {@code PATH}, {@code none} otherwise (more ranks than CPUs, as mpirun, which then binds
 * nothing; no {@code /proc}; no taskset). An explicit {@code --bind-to core} with more ranks than CPUs, or without
 * taskset, is a usage error (status 2) that says to use {@code --bind-to none} or install util-linux.
 * <p>How: each rank's command is started as {@code taskset --cpu-list CPU COMMAND} (util-linux's taskset sets its
 * own mask with {@code sched_setaffinity}, then executes the command in the same process). The mask is in place
 * before the JVM (or the native program, and the Java engine inside it) starts its first thread, and every thread
 * inherits it: the rank's main thread, the transport's protocol and heartbeat threads, the JIT's and GC's. Binding
 * from inside the rank JVM would come too late for the threads the JVM starts before {@code main}; setting the
 * launcher's own thread's mask around {@code ProcessBuilder.start} (a child inherits its parent thread's mask) would
 * tie the placement to how the JDK spawns a child (a helper process, {@code jspawnhelper}) and is invisible in
 * {@code ps}; a {@code taskset} command line shows each rank's CPU. The rank's process id is that of taskset
 * (it replaces itself with the command), so the pid check and the signals to stop a job reach the rank itself.
 * It does not apply to {@code --transport inmem}, whose ranks are threads of the launcher's JVM: an explicit
 * {@code --bind-to core} there is a usage error.
 *
 * <h2>Who may join a job: the rendezvous and the pid check</h2>
 * The launcher's rendezvous listens on {@code 127.0.0.1} only, and admits a connection as a rank only after both
 * sides have proved they hold the job key (a challenge-response with fresh nonces; every later line is
 * authenticated): see the {@link org.portals3j.runtime} package documentation for the protocol and for what an
 * attacker can and cannot do. The key is fresh for each run (or {@code PORTALS_JOB_KEY} of the launcher's
 * environment) and reaches the ranks only through their environment, which other users cannot read; another user
 * of the host who connects to the port is refused and learns nothing about the job from the refusal.
 * <p>On top of that, {@code --pid-check} (default {@code auto}) makes the rendezvous admit rank {@code r} only from
 * the process the launcher started as rank {@code r}, or from one of that process's descendants (a native
 * program's, or a wrapper script's, child). It finds the connecting process through Linux's {@code /proc}: the
 * connection's two ends in {@code /proc/net/tcp} and {@code tcp6} give its socket's inode, and the rank's process
 * tree is searched for a {@code /proc/PID/fd} entry {@code socket:[INODE]}. This stops a process that obtained the
 * key otherwise, e.g. a rank of another job given the same {@code PORTALS_JOB_KEY}, a leftover process, or a
 * process of the same user that read it. The refused process is told {@code rank 0's connection does not come
 * from the process portals run started as rank 0 ...}; the launcher logs the socket and the pids it searched.
 * Modes: {@code auto} checks where {@code /proc} can tell (Linux with {@code /proc} mounted and readable), and
 * admits on the key alone elsewhere; {@code on} makes a machine where it cannot tell a usage error (status 2);
 * {@code off} admits any process that proves the key. It does not apply to {@code --transport inmem} (no
 * rendezvous) nor to jobs started by Slurm or Open MPI (rank 0 cannot know the other ranks' processes, which run
 * on other hosts).
 *
 * <h2>Environment of a rank process</h2>
 * <table>
 * <caption>Variables set by portals run (and read by JobRuntime)</caption>
 * <tr><td>{@code PORTALS_RANK}, {@code PORTALS_SIZE}</td><td>the rank (0..N-1) and N</td></tr>
 * <tr><td>{@code PORTALS_RENDEZVOUS}</td><td>{@code host:port} of the job's TCP rendezvous</td></tr>
 * <tr><td>{@code PORTALS_JOB_ID}</td><td>the job's id (every rank must give the same)</td></tr>
 * <tr><td>{@code PORTALS_JOB_KEY}</td><td>the job's key, 64 hex digits ({@code openssl rand -hex 32})</td></tr>
 * <tr><td>{@code PORTALS_TRANSPORT}</td><td>the transport {@code join()} opens (default {@code udp})</td></tr>
 * <tr><td>{@code PORTALS_TRANSPORT_OPTIONS}</td><td>{@code k=v,k=v}, passed as the endpoint's options</td></tr>
 * <tr><td>{@code PORTALS_RENDEZVOUS_TIMEOUT}</td><td>seconds to reach the rendezvous and to wait for the other
 *     ranks (default 60; not set by portals run, inherited)</td></tr>
 * <tr><td>{@code PORTALS_IDLE}</td><td>{@code spin|yield|park|backoff}: how the endpoint's threads wait
 *     (default backoff; inherited)</td></tr>
 * <tr><td>{@code PORTALS_LOCAL_SIZE}</td><td>how many ranks run on this host (all of them): with more ranks than
 *     cores the waits give their core away early (see {@code org.portals3j.runtime})</td></tr>
 * <tr><td>{@code PORTALS_IDLE_OVERSUBSCRIBED}</td><td>{@code auto|true|false}: overrides that decision, as Open
 *     MPI's {@code mpi_yield_when_idle} does (default auto; inherited)</td></tr>
 * </table>
 *
 * <h2>Without portals run: Slurm and Open MPI</h2>
 * A rank started by {@code srun} ({@code SLURM_PROCID}, {@code SLURM_NTASKS}; job id
 * {@code slurm-$SLURM_JOB_ID.$SLURM_STEP_ID}) or Open MPI's {@code mpirun} ({@code OMPI_COMM_WORLD_RANK},
 * {@code OMPI_COMM_WORLD_SIZE}; job id {@code ompi-$OMPI_MCA_ess_base_jobid}) joins the same way, given the
 * rendezvous address and the key; rank 0 serves the rendezvous on that address:
 * <pre>
 * export PORTALS_RENDEZVOUS=$(hostname):7010        # the host of rank 0 (srun: the first node), a free port
 * export PORTALS_JOB_KEY=$(openssl rand -hex 32)    # the same for every rank
 * export PORTALS_TRANSPORT=udp
 * srun -n 4 java --enable-native-access=ALL-UNNAMED -cp portals-launcher.jar:app.jar com.example.Main
 * mpirun -np 4 -x PORTALS_RENDEZVOUS -x PORTALS_JOB_KEY -x PORTALS_TRANSPORT java -cp ... com.example.Main
 * </pre>
 * Open MPI's variables are looked at before Slurm's: under {@code mpirun} inside a Slurm allocation every
 * process inherits the batch step's {@code SLURM_PROCID=0}. With none of these variables a program is a job
 * of one rank on {@code inmem}. Rank 0 leaves the job only when the other ranks have left (or after
 * {@code PORTALS_RENDEZVOUS_TIMEOUT}), so that none of them sees the rendezvous vanish.
 *
 * <h2>No orphans</h2>
 * <ul>
 * <li>When a rank fails (non-zero status, or killed by a signal), the launcher prints one line
 *     ({@code portals run: rank 2 was killed by signal 9 (SIGKILL); stopping the job}), sends SIGTERM to the
 *     other ranks and their child processes, and SIGKILL to those left after {@code --grace} seconds
 *     (default 5).</li>
 * <li>When the launcher is stopped (SIGTERM, SIGINT, SIGHUP), its shutdown hook does the same.</li>
 * <li>When the launcher (or, under Slurm/Open MPI, rank 0) dies without that (SIGKILL, a crash), every rank
 *     sees its rendezvous TCP connection close, prints one line and exits with status 1. A rank keeps its
 *     rendezvous connection for its whole life ({@code JobContext.close()} ends it on purpose).</li>
 * </ul>
 *
 * <h2>A rank stopped or paused longer than the peer timeout</h2>
 * On {@code udp} the ranks watch each other (fail-stop): a rank its peers hear nothing from for
 * {@code udp.peerTimeoutMillis} (default 15 s; e.g. {@code PORTALS_TRANSPORT_OPTIONS=udp.peerTimeoutMillis=60000})
 * is declared dead by them, for good: what they had under way with it fails (Portals: PTL_NI_PEER_DEAD,
 * SEND_FAIL), and they drop what it sends. A rank stopped that long ({@code kill -STOP}, Ctrl-Z, a debugger
 * breakpoint, a suspended machine) learns it as soon as it runs again: each such peer answers it with a notice,
 * and the rank prints one line per peer
 * ({@code rank 1: rank 0 declared this rank dead: it heard nothing from it for longer than its
 * udp.peerTimeoutMillis ...}) and fails its own operations with them at once. A stop or pause shorter than the
 * timeout (a GC pause, a short stop) is harmless, and neither a rank's own stop nor a long handler call in it
 * makes it declare the other ranks dead. Whether the job then ends is the program's choice: the launcher stops
 * the job when a rank exits with a non-zero status.
 *
 * <h2>Exit status</h2>
 * 0 when every rank exits 0; otherwise the status of the first rank that failed; a rank killed by signal
 * {@code s} counts as {@code 128 + s} (as the JVM reports it, so a rank that exits with 137 reads as killed by
 * SIGKILL); in-JVM mode: 1 for a rank that threw. A usage or configuration error (bad {@code -n}, unknown
 * transport, main class not found, rendezvous port in use, {@code --pid-check on} where {@code /proc} cannot tell)
 * is one line on stderr and status 2.
 */
package org.portals3j.launcher;
