package org.portals3j.launcher;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code portals run -n N [--transport NAME] [-cp PATH] -- MAINCLASS|PROGRAM [ARGS]}: runs a job of N ranks,
 * of a Java main class or of a native program linked with libportals3 (the Portals C API). See the package
 * documentation for the environment each rank gets and the exit-status rules.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs MAINCLASS as a job of N ranks: N JVMs on any transport but inmem, N threads of this"
                + " JVM on inmem. Each output line is prefixed with its rank ([2] ...). A rank joins its job with"
                + " org.portals3j.runtime.JobRuntime.join().",
            "Runs PROGRAM (./prog: a C program linked with libportals3, e.g. built with portalscc) as N processes;"
                + " its Portals calls start the Java engine inside it. -cp and --jvm-option reach that engine.",
            "Exit status: 0 if every rank exits 0; else the status of the first rank that failed (128+N for a"
                + " rank killed by signal N), and the other ranks are stopped; 2 for a usage or configuration error."},
        exitCodeListHeading = "%nExit status:%n",
        footer = {"%nExamples:", "  portals run -n 4 -cp app.jar -- com.example.Main --size 1M",
            "  portals run -n 3 --transport inmem -cp target/classes com.example.Main",
            "  portals run -n 2 -- ./pingpong 1000"})
public final class RunCommand implements Callable<Integer> {

    @Option(names = {"-n", "--np"}, required = true, paramLabel = "N", description = "number of ranks (1 or more)")
    int ranks;

    @Option(names = "--transport", paramLabel = "NAME", defaultValue = "udp",
            description = "the job's transport (default: ${DEFAULT-VALUE}); inmem runs the ranks as threads of one JVM")
    String transport = "udp";

    @Option(names = {"-cp", "--class-path"}, paramLabel = "PATH", defaultValue = "",
            description = "the ranks' classes (jars and folders, ':'-separated), added to the launcher's class path")
    String classPath = "";

    @Option(names = "--transport-option", paramLabel = "KEY=VALUE",
            description = "a transport setting (repeatable); reaches the ranks as PORTALS_TRANSPORT_OPTIONS")
    List<String> transportOptions = new ArrayList<>();

    @Option(names = "--jvm-option", paramLabel = "OPTION",
            description = "an option for every rank JVM (repeatable), e.g. --jvm-option=-Xmx2g")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--rendezvous-port", paramLabel = "PORT", defaultValue = "0",
            description = "the loopback port of the job's rendezvous (default: any free port)")
    int rendezvousPort;

    @Option(names = "--pid-check", paramLabel = "auto|on|off", defaultValue = "auto",
            description = "admit to the job's rendezvous only the processes this run starts, each as its own rank (or"
                    + " their child processes), told apart through Linux's /proc; auto (default): where /proc allows"
                    + " it; on: a usage error where it does not; off: any process that holds the job key")
    ProcessJob.PidCheck pidCheck = ProcessJob.PidCheck.AUTO;

    @Option(names = "--grace", paramLabel = "SECONDS", defaultValue = "5",
            description = "how long stopped ranks get after SIGTERM before SIGKILL (default: ${DEFAULT-VALUE})")
    double graceSeconds = 5;

    @Option(names = "--bind-to", paramLabel = "core|none",
            description = {"where the rank processes run: core puts local rank r on the r-th CPU this process may use"
                    + " (started through taskset --cpu-list, util-linux: every thread of the rank's JVM or program"
                    + " stays on it); none leaves them the whole mask. Default, as mpirun's: core when the ranks are"
                    + " at most those CPUs and taskset is on PATH, none otherwise; not for --transport inmem"})
    @Nullable String bindTo;

    @Parameters(index = "0", paramLabel = "MAINCLASS|PROGRAM",
            description = "the ranks' main class, or a program (a path with a '/', or a name on PATH)")
    String mainClass = "";

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "its arguments")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (ranks < 1) {
            throw new LauncherException("-n must be 1 or more, not " + ranks + " (see: portals run --help)");
        }
        if (rendezvousPort < 0 || rendezvousPort > 65535) {
            throw new LauncherException("--rendezvous-port must be 0..65535, not " + rendezvousPort);
        }
        if (!(graceSeconds >= 0)) {
            throw new LauncherException("--grace must be 0 or more seconds, not " + graceSeconds);
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (String o : transportOptions) {
            try {
                options.putAll(JobRuntime.options(o));
            } catch (TransportException e) {
                throw new LauncherException("--transport-option '" + o + "' is not key=value");
            }
        }
        ClassLoader userLoader = MainClasses.loader(classPath);
        @Nullable Path program = program(userLoader);
        @Nullable Method main = program == null ? MainClasses.find(mainClass, userLoader) : null;
        checkTransport(userLoader);
        String jobId = "run-" + ProcessHandle.current().pid() + "-"
                + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
        JobKey key = jobKey();
        Duration grace = Duration.ofMillis((long) (graceSeconds * 1000));
        if (transport.equals("inmem")) {
            if (bindTo != null && RankBinding.core(bindTo)) {
                throw new LauncherException("--bind-to core binds rank processes, but --transport inmem runs the ranks"
                        + " as threads of one JVM: use a transport between processes (e.g. udp, the default), or"
                        + " leave --bind-to out");
            }
            if (main == null) {
                throw new LauncherException("--transport inmem runs the ranks as threads of one JVM, but " + mainClass
                        + " is a program: it needs a process per rank; use a transport between processes, e.g."
                        + " --transport udp (the default)");
            }
            return new InJvmJob(ranks, jobId, key, options, userLoader, main, args, grace).run();
        }
        RankCommand command = program != null ? RankCommand.program(program, args, classPath, jvmOptions)
                : RankCommand.mainClass(mainClass, args, classPath, jvmOptions);
        RankBinding binding = RankBinding.of(bindTo, ranks, RankBinding.allowedCpus(),
                NativePrograms.onPath(RankBinding.TASKSET, System.getenv("PATH")));
        return new ProcessJob(ranks, jobId, key, transport, options, rendezvousPort, command, grace, pidCheck,
                binding).run();
    }

    /**
     * The native program MAINCLASS|PROGRAM names, or null for a main class: a path ({@code ./prog}) is a
     * program; a bare name is a program if no such class exists and PATH has an executable of that name.
     */
    private @Nullable Path program(ClassLoader userLoader) throws LauncherException {
        if (NativePrograms.isPath(mainClass)) {
            return NativePrograms.require(mainClass);
        }
        try {
            MainClasses.find(mainClass, userLoader);
            return null;
        } catch (LauncherException notAClass) {
            @Nullable Path onPath = NativePrograms.onPath(mainClass, System.getenv("PATH"));
            if (onPath == null) {
                @Nullable String hint = NativePrograms.currentDirectoryHint(mainClass, Path.of("").toAbsolutePath());
                throw hint == null ? notAClass : new LauncherException(hint);
            }
            return onPath;
        }
    }

    /** The transport must be on the ranks' class path (the launcher's plus -cp) and available here. */
    private void checkTransport(ClassLoader userLoader) throws LauncherException {
        Optional<TransportProvider> provider = ServiceLoader.load(TransportProvider.class, userLoader).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.name().equals(transport)).findFirst();
        try {
            if (provider.isEmpty() || transport.equals("inmem")) {
                Transports.require(transport); // its message names the transports that do exist
            } else if (!provider.get().availability().available()) {
                throw new LauncherException("transport '" + transport + "' is not available: "
                        + provider.get().availability().reason());
            }
        } catch (TransportException e) {
            throw new LauncherException(String.valueOf(e.getMessage()));
        }
    }

    /** PORTALS_JOB_KEY of the launcher's environment if set (to share it with ranks started elsewhere), else fresh. */
    private static JobKey jobKey() throws LauncherException {
        @Nullable String hex = System.getenv(JobRuntime.JOB_KEY);
        if (hex == null || hex.isBlank()) {
            return JobKey.random();
        }
        try {
            return JobKey.fromHex(hex);
        } catch (IllegalArgumentException e) {
            throw new LauncherException(JobRuntime.JOB_KEY + " is not a valid key: " + e.getMessage());
        }
    }
}
