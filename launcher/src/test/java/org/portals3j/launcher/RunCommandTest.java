package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.launcher.ranks.Failing;
import org.portals3j.launcher.ranks.Hello;
import org.portals3j.launcher.ranks.RingExchange;
import org.portals3j.launcher.ranks.Sleeper;

/** portals run, as a real process starting real rank processes or threads. */
class RunCommandTest {

    private static List<Long> pids(List<String> lines) {
        List<Long> pids = new ArrayList<>();
        for (String l : lines) {
            pids.add(Long.parseLong(l.replaceAll(".*pid=(\\d+).*", "$1")));
        }
        return pids;
    }

    private static void assertAllGone(List<Long> pids) throws Exception {
        for (long pid : pids) {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isPresent()) {
                h.get().onExit().get(20, TimeUnit.SECONDS);
            }
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("rank process %d", pid)
                    .isNotEqualTo(Optional.of(true));
        }
    }

    @Test
    void inJvmRanksPrintPrefixedLinesAndExchangeAMessageOverInmem() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--transport", "inmem", "--",
                RingExchange.class.getName());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrder(
                "[0] rank 0 of 3 on inmem got 1002 from rank 2; same context: true",
                "[1] rank 1 of 3 on inmem got 1000 from rank 0; same context: true",
                "[2] rank 2 of 3 on inmem got 1001 from rank 1; same context: true");
        assertThat(run.err).isEmpty();
    }

    @Test
    void inJvmRanksAndTheirThreadsHaveTheirOwnPrefixOnStdoutAndStderr() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--transport", "inmem", Hello.class.getName(),
                "a", "-b");
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrder("[0] hello from 0 of 3 a -b", "[1] hello from 1 of 3 a -b",
                "[2] hello from 2 of 3 a -b", "[0] helper thread of 0", "[1] helper thread of 1",
                "[2] helper thread of 2");
        assertThat(run.err).containsExactlyInAnyOrder("[0] to stderr", "[1] to stderr", "[2] to stderr");
    }

    @Test
    void anInJvmRankThatThrowsFailsTheJobNamingTheRank() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--transport", "inmem", "--grace", "2",
                Failing.class.getName(), "1", "throw");
        assertThat(run.await()).isEqualTo(1);
        assertThat(run.err).contains("portals run: rank 1 failed with java.lang.IllegalStateException: boom at rank 1;"
                + " stopping the job");
        assertThat(run.err).contains("[1] Exception in thread \"main\" java.lang.IllegalStateException: "
                + "boom at rank 1");
        assertThat(run.err).noneMatch(l -> l.contains("InterruptedException"));
        assertThat(run.out).hasSize(2).allMatch(l -> l.matches("\\[[02]] waiting pid=\\d+"));
    }

    @Test
    void processRanksSeeEachOthersUidsAndPrefixedOutput() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3",
                "--jvm-option=-Dportals.test.marker=m1", "--", Sleeper.class.getName(), "0");
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        String uid = Long.toString((Integer) Files.getAttribute(Path.of("/proc/self"),
                "unix:uid"));
        assertThat(run.out).hasSize(3);
        for (int r = 0; r < 3; r++) {
            int rank = r;
            assertThat(run.out).anySatisfy(l -> assertThat(l).startsWith("[" + rank + "] pid=")
                    .contains("source=PORTALS_RUN").contains("transport=udp").contains("marker=m1")
                    .endsWith("uids=0:" + uid + " 1:" + uid + " 2:" + uid));
        }
        assertThat(run.out.stream().map(l -> l.replaceAll(".* job=(\\S+) .*", "$1")).distinct()).hasSize(1);
    }

    @Test
    void aRankExitingWithStatusThreeEndsTheJobWithStatusThreeAndStopsTheOthers() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--grace", "2",
                Failing.class.getName(), "1", "exit:3");
        int status = run.await();
        assertThat(status).as("stdout %s stderr %s", run.out, run.err).isEqualTo(3);
        assertThat(run.err).contains("portals run: rank 1 exited with status 3; stopping the job");
        assertAllGone(pids(run.out.stream().filter(l -> l.contains("pid=")).toList()));
        assertThat(run.process.toHandle().descendants()).isEmpty();
    }

    @Test
    void aRankKilledBySigkillIsReportedAndNoOtherRankSurvives() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--grace", "2",
                Sleeper.class.getName());
        List<String> started = run.awaitOut(l -> l.contains("pid="), 3);
        List<Long> pids = pids(started);
        long victim = pids(started.stream().filter(l -> l.startsWith("[2] ")).toList()).get(0);
        List<ProcessHandle> children = run.process.toHandle().children().toList();
        assertThat(children).extracting(ProcessHandle::pid).containsExactlyInAnyOrderElementsOf(pids);
        new ProcessBuilder("kill", "-KILL", Long.toString(victim)).start().waitFor();
        assertThat(run.await()).isEqualTo(128 + 9);
        assertThat(run.err).containsExactly("portals run: rank 2 was killed by signal 9 (SIGKILL); stopping the job");
        assertAllGone(pids);
    }

    @Test
    void whenTheLauncherIsKilledItsRanksEndThemselves() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", Sleeper.class.getName());
        List<Long> pids = pids(run.awaitOut(l -> l.contains("pid="), 2));
        run.process.destroyForcibly(); // SIGKILL: no shutdown hook runs
        run.process.waitFor(20, TimeUnit.SECONDS);
        assertAllGone(pids);
    }

    @Test
    void whenTheLauncherIsTerminatedItStopsItsRanks() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--grace", "2",
                Sleeper.class.getName());
        List<Long> pids = pids(run.awaitOut(l -> l.contains("pid="), 2));
        run.process.destroy(); // SIGTERM: the shutdown hook stops the ranks
        run.await();
        assertAllGone(pids);
    }
}
