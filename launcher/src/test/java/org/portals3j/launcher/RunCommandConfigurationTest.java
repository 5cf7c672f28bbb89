package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.DatagramChannel;
import org.junit.jupiter.api.Test;
import org.portals3j.examples.Ring;
import org.portals3j.launcher.ranks.Hello;

/** Bad configuration: one line on stderr that says what to do, and a non-zero exit status (2). */
class RunCommandConfigurationTest {

    private static LauncherProcess ran(String... args) throws Exception {
        LauncherProcess run = LauncherProcess.start(args);
        run.await();
        return run;
    }

    @Test
    void anUnknownTransportIsNamedWithTheTransportsThatExist() throws Exception {
        LauncherProcess run = ran("run", "-n", "2", "--transport", "carrier-pigeon", Hello.class.getName());
        assertThat(run.process.exitValue()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals run: unknown transport 'carrier-pigeon'; transports on the"
                + " class path: gm, inmem, udp");
        assertThat(run.out).isEmpty();
    }

    @Test
    void aBadRankCountIsAUsageError() throws Exception {
        for (String n : new String[] {"0", "-4"}) {
            LauncherProcess run = ran("run", "-n", n, "--transport", "inmem", Hello.class.getName());
            assertThat(run.process.exitValue()).isEqualTo(2);
            assertThat(run.err).containsExactly("portals run: -n must be 1 or more, not " + n
                    + " (see: portals run --help)");
        }
        LauncherProcess notANumber = ran("run", "-n", "three", Hello.class.getName());
        assertThat(notANumber.process.exitValue()).isEqualTo(2);
        assertThat(notANumber.err).hasSize(1).first().asString().startsWith("portals run: Invalid value for option"
                + " '--np': 'three' is not an int").endsWith("(see: portals run --help)");
        LauncherProcess missing = ran("run", Hello.class.getName());
        assertThat(missing.process.exitValue()).isEqualTo(2);
        assertThat(missing.err).hasSize(1).first().asString().contains("Missing required option: '--np=N'");
    }

    @Test
    void aMainClassThatIsNotOnTheClassPathSaysToAddItWithCp() throws Exception {
        LauncherProcess run = ran("run", "-n", "2", "--transport", "inmem", "-cp", "/nonexistent/app.jar",
                "com.x.Main");
        assertThat(run.process.exitValue()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals run: class com.x.Main not found on the class path: "
                + "add it with -cp");
    }

    @Test
    void aRendezvousPortInUseSaysSoAndHowToAvoidIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            LauncherProcess run = ran("run", "-n", "2", "--rendezvous-port",
                    Integer.toString(port), Hello.class.getName());
            assertThat(run.process.exitValue()).isEqualTo(2);
            assertThat(run.err).containsExactly("portals run: cannot serve the rendezvous on 127.0.0.1:" + port
                    + ": the port is in use (another job or program has it); choose another port"
                    + " (--rendezvous-port), or leave --rendezvous-port out to take a free one");
        }
    }

    @Test
    void aUdpPortInUseEndsTheJobWithTheTransportsOneLine() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open()
                .bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            LauncherProcess run = ran("run", "-n", "2", "--transport-option", "udp.port=" + port, "--",
                    Ring.class.getName());
            assertThat(run.process.exitValue()).isEqualTo(1);
            assertThat(run.err).contains("[0] portals: UDP port " + port + " on 127.0.0.1 (rank 0) is already in use;"
                    + " choose another base port with udp.port=... or 0 for any free port");
            assertThat(run.err).noneMatch(l -> l.contains("\tat ")); // no stack trace
            assertThat(run.err).anyMatch(l -> l.startsWith("portals run: rank 0 exited with status 1"));
        }
    }

    @Test
    void helpIsThereForTheCommandAndForRunAndAMissingCommandIsAUsageError() throws Exception {
        LauncherProcess help = ran("--help");
        assertThat(help.process.exitValue()).isZero();
        assertThat(help.out).anySatisfy(l -> assertThat(l).contains("run"));
        LauncherProcess runHelp = ran("run", "--help");
        assertThat(runHelp.process.exitValue()).isZero();
        assertThat(String.join("\n", runHelp.out)).contains("-n, --np=N").contains("--transport=NAME")
                .contains("-cp, --class-path=PATH").contains("--bind-to=core|none").contains("taskset")
                .contains("Exit status");
        LauncherProcess nothing = ran();
        assertThat(nothing.process.exitValue()).isEqualTo(2);
        assertThat(nothing.err).containsExactly("portals: a command is missing: portals run, "
                + "portals tck or portals info (see: portals --help)");
        LauncherProcess unknown = ran("run", "-n", "1", "--frobnicate", Hello.class.getName());
        assertThat(unknown.process.exitValue()).isEqualTo(2);
        assertThat(unknown.err).containsExactly("portals run: Unknown option: '--frobnicate' (see: "
                + "portals run --help)");
    }
}
