package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Availability;
import org.portals3j.transport.gm.GmTransportProvider;

/** Runs GmPingPong for real in --quick mode over shm and checks what it prints (never how fast it was). */
class GmPingPongTest {
    /** provider, size, iterations, gm, fi_pingpong, ratio, libgm_c, portals_inmem. */
    private static final Pattern ROW = Pattern.compile("^(\\w+)\\s+(\\d+)\\s+(\\d+)\\s+([0-9.]+)"
            + "\\s+([0-9.]+|-)\\s+([0-9.]+|-)\\s+([0-9.]+|-)\\s+([0-9.]+|-)\\s*$");
    private static final Pattern BANDWIDTH = Pattern.compile("^bandwidth shm 1 MiB ping-pong: gm ([0-9.]+) GB/s,"
            + " fi_pingpong ([0-9.]+) GB/s, ratio ([0-9.]+); gm Put windows of 16: ([0-9.]+) GB/s, ratio ([0-9.]+)$");
    private static final Pattern FFM = Pattern.compile("^ffm shm: empty downcall ([0-9.]+) ns, idle gmx_poll ([0-9.]+)"
            + " ns; 3 downcalls per eager message: ([0-9]+) ns of crossings .*$");

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = GmPingPong.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void quickRunOverShmPrintsARowPerSizeTheBandwidthAndTheCallCosts() {
        assumeTrue(FiPingPong.onPath() != null, "fi_pingpong is not on PATH: apt-get install libfabric-bin");
        Availability shm = GmTransportProvider.availability("shm");
        assumeTrue(shm.available(), () -> "gm over shm cannot run here: " + shm.reason());

        Run r = run("--quick", "--providers", "shm", "--sizes", "8,1M");

        assertThat(r.exit()).as("exit code; stderr:%n%s", r.err()).isZero();
        List<Integer> sizes = new ArrayList<>();
        int bandwidth = 0;
        int ffm = 0;
        for (String line : r.out().split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                assertThat(m.group(1)).isEqualTo("shm");
                sizes.add(Integer.parseInt(m.group(2)));
                double gm = Double.parseDouble(m.group(4));
                assertThat(gm).as(line).isPositive();
                // "-": every fi_pingpong run's figure drowned in its set-up's noise (a loaded machine)
                assertThat(m.group(5).equals("-")).as(line).isEqualTo(m.group(6).equals("-"));
                if (!m.group(5).equals("-")) {
                    double fi = Double.parseDouble(m.group(5));
                    assertThat(fi).as(line).isPositive();
                    assertThat(Double.parseDouble(m.group(6))).as(line).isCloseTo(gm / fi,
                            within(0.0051 + 1.1 * (gm / fi) * (0.0005 / gm + 0.0005 / fi)));
                }
                assertThat(m.group(7)).as("libgm's C ping-pong is not run without --gmx-pingpong: " + line)
                        .isEqualTo("-");
                if (Integer.parseInt(m.group(2)) <= GmPingPong.FLOOR_MAX_SIZE) {
                    assertThat(Double.parseDouble(m.group(8))).as("the inmem floor: " + line).isPositive();
                } else {
                    assertThat(m.group(8)).as("no inmem floor above 64 KiB: " + line).isEqualTo("-");
                }
            }
            Matcher b = BANDWIDTH.matcher(line);
            if (b.matches()) {
                bandwidth++;
                assertThat(Double.parseDouble(b.group(1))).as(line).isPositive();
                assertThat(Double.parseDouble(b.group(2))).as(line).isPositive();
                assertThat(Double.parseDouble(b.group(4))).as(line).isPositive();
            }
            Matcher f = FFM.matcher(line);
            if (f.matches()) {
                ffm++;
                assertThat(Double.parseDouble(f.group(1))).as(line).isPositive();
                assertThat(Double.parseDouble(f.group(2))).as(line).isPositive();
            }
        }
        assertThat(sizes).as("rows in%n%s", r.out()).containsExactly(8, 1 << 20);
        // the 1 MiB comparison is printed when fi_pingpong's 1 MiB figure is
        Pattern windowsOnly = Pattern.compile("(?m)^bandwidth shm: gm Put windows of 16 x 1 MiB: [0-9.]+ GB/s .*$");
        assertThat(bandwidth + (windowsOnly.matcher(r.out()).find() ? 1 : 0)).as("bandwidth lines in%n%s", r.out())
                .isEqualTo(1);
        assertThat(ffm).as("ffm lines in%n%s", r.out()).isEqualTo(1);
    }

    @Test
    void readsTheMicrosecondsPerTransferOfFiPingPong() throws IOException {
        String out = """
                bytes   #sent   #ack     total       time     MB/sec    usec/xfer   Mxfers/sec
                8       2k      =2k      31k         1.42s      0.02     354.86       0.00
                """;

        String mib = out.replace("8       2k      =2k      31k         1.42s      0.02     354.86",
                "1m      20      =20      40m         0.36s    118.11    8878.12");

        assertThat(FiPingPong.parseMicrosPerTransfer(out, 8)).isEqualTo(354.86);
        assertThat(FiPingPong.parseMicrosPerTransfer(mib, 1 << 20)).isEqualTo(8878.12);
        assertThatThrownBy(() -> FiPingPong.parseMicrosPerTransfer("bytes #sent\n", 1024))
                .isInstanceOf(IOException.class).hasMessageContaining("no result line for 1024 B");
    }

    @Test
    void readsTheMedianLibgmsCPingPongPrints() throws IOException {
        assertThat(LibgmPingPong.parse("p50_half_round_trip_us 9.578\n")).isEqualTo(9.578);
        assertThatThrownBy(() -> LibgmPingPong.parse("skipped: no provider\n")).isInstanceOf(IOException.class)
                .hasMessageContaining("no p50_half_round_trip_us line");
    }

    @Test
    void namesLibfabricsProvidersAsGmDoes() {
        assertThat(FiPingPong.libfabricProvider("tcp")).isEqualTo("tcp;ofi_rxm");
        assertThat(FiPingPong.libfabricProvider("udp")).isEqualTo("udp;ofi_rxd");
        assertThat(FiPingPong.libfabricProvider("shm")).isEqualTo("shm");
    }

    @Test
    void rejectsBadArgumentsWithTheUsage() {
        Run r = run("--rounds", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("rounds >= 1").contains("usage: GmPingPong");

        Run provider = run("--option", "gm.provider=shm");
        assertThat(provider.exit()).isEqualTo(2);
        assertThat(provider.err()).contains("other than gm.provider (see --providers)");

        Run unknown = run("--bogus", "1");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown option '--bogus'");
    }
}
