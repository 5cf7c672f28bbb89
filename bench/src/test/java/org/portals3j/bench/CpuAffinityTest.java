package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Rank threads bound with sched_setaffinity (PingPong --bind-to), read back from /proc; never a timing. */
class CpuAffinityTest {

    private static void assumeBindable(int cpus) {
        String reason = CpuAffinity.unavailableReason();
        assumeTrue(reason == null, reason);
        List<Integer> allowed = CpuAffinity.allowed();
        assumeTrue(allowed.size() >= cpus, "needs " + cpus + " allowed CPUs; this thread may use " + allowed);
    }

    /** {@code Cpus_allowed_list} of task {@code tid} of this process, read by another thread. */
    private static String allowedListOf(String tid) throws Exception {
        return Files.readAllLines(Path.of("/proc/self/task", tid, "status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElseThrow();
    }

    private static String tid() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBoundThreadAndTheThreadsItStartsMayRunOnlyOnItsCpu() throws Exception {
        assumeBindable(1);
        List<Integer> allowed = CpuAffinity.allowed();
        int cpu = allowed.get(allowed.size() - 1);
        String before = CpuAffinity.allowedList();
        CompletableFuture<String> boundTid = new CompletableFuture<>();
        CompletableFuture<String> childTid = new CompletableFuture<>();
        CountDownLatch checked = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> {
            CpuAffinity.bindCurrentThread(cpu);
            boundTid.complete(tid());
            Thread child = Thread.ofPlatform().start(() -> {
                childTid.complete(tid());
                awaitQuietly(checked);
            });
            awaitQuietly(checked);
            joinQuietly(child);
        });
        try {
            assertThat(allowedListOf(boundTid.get(60, TimeUnit.SECONDS))).isEqualTo(Integer.toString(cpu));
            assertThat(allowedListOf(childTid.get(60, TimeUnit.SECONDS))).isEqualTo(Integer.toString(cpu));
            assertThat(CpuAffinity.allowedList()).as("the test thread's own mask").isEqualTo(before);
        } finally {
            checked.countDown();
            t.join();
        }
    }

    @Test
    void onOneAllowedCpuPingPongRefusesCore() throws Exception {
        assumeBindable(1);
        int cpu = CpuAffinity.allowed().get(0);
        CompletableFuture<Throwable> core = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            CpuAffinity.bindCurrentThread(cpu); // this thread now sees a 1-CPU mask
            try {
                Placement.CORE.cpus();
                core.complete(null);
            } catch (RuntimeException e) {
                core.complete(e);
            }
        });
        t.join();
        assertThat(core.get()).isInstanceOf(IllegalArgumentException.class).hasMessage("--bind-to core: binding needs"
                + " 2 CPUs for the 2 ranks, but this process may use only [" + cpu + "]; use --bind-to none");
    }

    @Test
    void pingPongBoundToCorePutsRankThreadROnTheRthAllowedCpu() {
        assumeBindable(2);
        List<Integer> allowed = CpuAffinity.allowed();
        Run r = run("--quick", "--sizes", "8", "--iterations", "20", "--bind-to", "core");
        assertThat(r.exit).as("stderr %s", r.err).isZero();
        assertThat(r.out).contains("placement: rank threads bound (--bind-to core): rank 0 to CPU " + allowed.get(0)
                + ", rank 1 to CPU " + allowed.get(1) + " (Cpus_allowed_list read back: " + allowed.get(0) + " and "
                + allowed.get(1) + ")");
    }

    @Test
    void pingPongBindToNoneLeavesTheRankThreadsTheWholeMask() {
        assumeBindable(1);
        String whole = CpuAffinity.allowedList();
        Run r = run("--quick", "--sizes", "8", "--iterations", "20", "--bind-to", "none");
        assertThat(r.exit).as("stderr %s", r.err).isZero();
        assertThat(r.out).contains("placement: rank threads not bound (--bind-to none): rank 0 may run on CPUs "
                + whole + ", rank 1 on " + whole);
    }

    @Test
    void byDefaultTheRankThreadsOfATransportThatDeliversInlineAreBound() {
        assumeBindable(2);
        List<Integer> allowed = CpuAffinity.allowed();
        Run r = run("--quick", "--sizes", "8", "--iterations", "20");
        assertThat(r.exit).as("stderr %s", r.err).isZero();
        assertThat(r.out).contains("placement: rank threads bound (--bind-to auto: inmem delivers inline, so no thread"
                + " of its own shares a bound rank's CPU): rank 0 to CPU " + allowed.get(0) + ", rank 1 to CPU "
                + allowed.get(1) + " (Cpus_allowed_list read back: " + allowed.get(0) + " and " + allowed.get(1) + ")");
        Suite.Options suite = Suite.Options.parse();
        assertThat(suite).isNotNull();
        assertThat(suite.placement()).as("portals bench's default").isEqualTo(Placement.AUTO);
    }

    @Test
    void autoLeavesTheRankThreadsOfATransportWithThreadsOfItsOwnUnbound() {
        Placement.Choice udp = Placement.AUTO.choose("udp");
        assertThat(udp.placement()).isEqualTo(Placement.NONE);
        assertThat(udp.how()).isEqualTo("--bind-to auto: udp does not deliver inline, and its threads would share a"
                + " bound rank's CPU");
        assertThat(Placement.CORE.choose("udp")).as("an explicit choice stands")
                .isEqualTo(new Placement.Choice(Placement.CORE, "--bind-to core"));
    }

    @Test
    void autoOnOneAllowedCpuLeavesTheRankThreadsUnboundAndSaysWhy() throws Exception {
        assumeBindable(1);
        int cpu = CpuAffinity.allowed().get(0);
        CompletableFuture<Placement.Choice> choice = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            CpuAffinity.bindCurrentThread(cpu);
            choice.complete(Placement.AUTO.choose("inmem"));
        });
        t.join();
        assertThat(choice.get()).isEqualTo(new Placement.Choice(Placement.NONE, "--bind-to auto: binding needs 2 CPUs"
                + " for the 2 ranks, but this process may use only [" + cpu + "]"));
    }

    @Test
    void aBadBindToValueIsRefusedWithTheValues() {
        Run r = run("--bind-to", "socket");
        assertThat(r.exit).isEqualTo(2);
        assertThat(r.err).contains("--bind-to must be auto, core or none, not 'socket'", "usage: PingPong");
        assertThatThrownBy(() -> Suite.Options.parse("--bind-to", "numa")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--bind-to must be auto, core or none, not 'numa'");
    }

    @Test
    void theOpenMpiPeersBindingsAreReadFromReportBindings() {
        assertThat(OpenMpiPeer.parseBindings("""
                [vm:14630] MCW rank 1 bound to socket 0[core 1[hwt 0]]: [./B]
                [vm:14630] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/.]
                """)).isEqualTo("rank 0 bound to socket 0[core 0[hwt 0]]: [B/.]; rank 1 bound to socket 0[core 1[hwt"
                + " 0]]: [./B]");
        assertThat(OpenMpiPeer.parseBindings("")).isEqualTo("not bound (mpirun --report-bindings reported no"
                + " binding)");
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = PingPong.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
