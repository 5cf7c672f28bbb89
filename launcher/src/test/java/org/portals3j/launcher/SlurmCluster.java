package org.portals3j.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A one-node Slurm cluster of this machine, configured in a scratch directory: its own munged (own key and
 * socket), slurmctld and slurmd as child processes on free ports; {@link #close()} stops all three.
 */
final class SlurmCluster implements AutoCloseable {
    /** How long the daemons get to come up; generous, for a loaded machine. */
    private static final long START_SECONDS = 30;

    private final Path dir;
    private final Path conf;
    private final List<Process> daemons = new ArrayList<>();

    /** Why the cluster could not start: the test skips with this reason. */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String reason) {
            super(reason);
        }
    }

    private SlurmCluster(Path dir) {
        this.dir = dir;
        this.conf = dir.resolve("slurm.conf");
    }

    /** Starts the cluster in {@code dir}, or says why it cannot (not root, Slurm not installed, a daemon failed). */
    static SlurmCluster start(Path dir) throws Unavailable, IOException, InterruptedException {
        if (!Commands.isRoot()) {
            throw new Unavailable("a test cluster's slurmd must run as root; run the test command as root to"
                    + " include the Slurm tests");
        }
        for (String tool : List.of("/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd")) {
            if (!Files.isExecutable(Path.of(tool))) {
                throw new Unavailable(tool + " is not installed (Debian packages slurm-wlm and munge; the test"
                        + " command installs them as root)");
            }
        }
        SlurmCluster cluster = new SlurmCluster(dir);
        try {
            cluster.startDaemons();
            return cluster;
        } catch (Unavailable | IOException | RuntimeException e) {
            cluster.close();
            throw e;
        } catch (InterruptedException e) {
            cluster.close();
            throw e;
        }
    }

    /** The environment srun needs to find this cluster. */
    Map<String, String> environment() {
        return Map.of("SLURM_CONF", conf.toString());
    }

    private void startDaemons() throws Unavailable, IOException, InterruptedException {
        // the socket must be reachable by slurmstepd and srun: the directory is world-searchable
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String sub : List.of("state", "spool", "log")) {
            Files.createDirectories(dir.resolve(sub));
        }
        Path key = dir.resolve("munge.key");
        byte[] secret = new byte[1024];
        new SecureRandom().nextBytes(secret);
        Files.write(key, secret);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Path socket = dir.resolve("munge.socket");
        daemons.add(daemon("munged", "/usr/sbin/munged", "-F", "-f", "--key-file=" + key, "--socket=" + socket,
                "--pid-file=" + dir.resolve("munged.pid"), "--log-file=" + dir.resolve("log/munged.log"),
                "--seed-file=" + dir.resolve("munged.seed")));
        awaitCondition(() -> Files.exists(socket), "munged did not create its socket", "munged");

        String host = Commands.run("hostname", "-s").output().strip();
        if (host.isEmpty()) {
            throw new Unavailable("hostname -s printed nothing: slurmd needs this node's short host name");
        }
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new Unavailable("this host's name '" + host + "' does not resolve (add it to /etc/hosts): srun's"
                    + " node list names it, and the recipe's PORTALS_RENDEZVOUS=:PORT resolves it");
        }
        Files.writeString(conf, slurmConf(host, socket, freePort(), freePort()), StandardCharsets.UTF_8);
        daemons.add(daemon("slurmctld", "/usr/sbin/slurmctld", "-D", "-f", conf.toString()));
        daemons.add(daemon("slurmd", "/usr/sbin/slurmd", "-D", "-f", conf.toString()));
        awaitCondition(() -> {
            Commands.Result sinfo = Commands.run(environment(), "sinfo", "-h", "-o", "%T");
            return sinfo.status() == 0 && sinfo.output().strip().equals("idle");
        }, "slurmd did not register (sinfo never said idle)", "slurmd");
    }

    /**
     * No cgroups (proctrack/linuxproc, task/none: containers and sandboxes often have no cgroup hierarchy to
     * give slurmd, so no cgroup.conf), no accounting; more tasks than CPUs with {@code srun --overcommit}.
     */
    private String slurmConf(String host, Path mungeSocket, int ctldPort, int slurmdPort) {
        return String.join("\n",
                "ClusterName=portals3j",
                "SlurmctldHost=" + host + "(127.0.0.1)",
                "SlurmctldPort=" + ctldPort,
                "SlurmdPort=" + slurmdPort,
                "SlurmUser=root",
                "SlurmdUser=root",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                "AuthInfo=socket=" + mungeSocket,
                "MpiDefault=none",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                "ReturnToService=2",
                "MailProg=/bin/true",
                "StateSaveLocation=" + dir.resolve("state"),
                "SlurmdSpoolDir=" + dir.resolve("spool"),
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
                "SlurmctldLogFile=" + dir.resolve("log/slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("log/slurmd.log"),
                "NodeName=" + host + " NodeAddr=127.0.0.1 CPUs=" + Runtime.getRuntime().availableProcessors()
                        + " State=UNKNOWN",
                "PartitionName=debug Nodes=" + host + " Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES",
                "");
    }

    private Process daemon(String name, String... cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_"));
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("log/" + name + ".out").toFile());
        return pb.start();
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws IOException, InterruptedException;
    }

    /** Polls {@code condition} until it holds; if it never does, or a daemon ends, says why with its log. */
    private void awaitCondition(Condition condition, String what, String log) throws Unavailable, IOException,
            InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (!condition.holds()) {
            for (Process p : daemons) {
                if (!p.isAlive()) {
                    throw new Unavailable(p.info().command().orElse("a daemon") + " ended with status "
                            + p.exitValue() + " while starting the test cluster: " + logTail(log));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new Unavailable(what + " within " + START_SECONDS + " s: " + logTail(log));
            }
            Thread.sleep(100);
        }
    }

    /** The last lines a daemon wrote (its log file and its stdout/stderr). */
    String logTail(String name) throws IOException {
        StringBuilder tail = new StringBuilder();
        for (Path f : List.of(dir.resolve("log/" + name + ".log"), dir.resolve("log/" + name + ".out"))) {
            if (Files.exists(f)) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                tail.append(String.join(" | ", lines.subList(Math.max(0, lines.size() - 8), lines.size())));
            }
        }
        return tail.isEmpty() ? "(" + name + " wrote nothing)" : tail.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }

    /** Stops slurmd, slurmctld and munged (and any step daemon left), TERM first, KILL after 20 s. */
    @Override
    public void close() throws InterruptedException {
        for (int i = daemons.size() - 1; i >= 0; i--) {
            Process p = daemons.get(i);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            }
        }
        daemons.clear();
    }
}
