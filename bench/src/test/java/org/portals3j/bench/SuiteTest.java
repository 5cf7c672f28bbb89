package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code portals bench --quick} on inmem with tiny counts: the CI smoke run. Asserts the report's structure and that
 * every figure is positive, never a timing.
 */
class SuiteTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Run(int exit, String out, String err) {
    }

    private static Run run(Path loadavg, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Suite.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), loadavg);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Path loadavg(Path dir, String first) throws IOException {
        return Files.writeString(dir.resolve("loadavg"), first + " 0.20 0.10 1/100 4242\n");
    }

    @Test
    void quickRunOnInmemWritesJsonPlotsAndHtmlWithPositiveFiguresForEveryRow(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        Run r = run(loadavg(dir, "0.05"), "--transport", "inmem", "--quick", "--iterations", "20", "--peers",
                "handoff,lapi", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("# OSU MPI Latency Test", "# OSU MPI Bandwidth Test", "# Goals");

        JsonNode json = JSON.readTree(out.resolve("results.json").toFile());
        assertThat(json.get("idle").asBoolean()).isTrue();
        assertThat(json.get("warning").isNull()).isTrue();
        assertThat(json.get("load").asDouble()).isEqualTo(0.05);
        assertThat(json.get("date").asText()).isNotBlank();
        assertThat(json.get("machine").get("cores").asInt()).isPositive();
        List<String> rows = rowsWithPositiveFigures(json);
        assertThat(rows).contains("Portals Put latency inmem", "Portals Put bandwidth inmem", "Portals Put rate inmem",
                "Portals Get (whole get) latency inmem", "Portals Get bandwidth inmem", "Portals Get rate inmem",
                "thread hand-off (MemorySegment.copy + flag) latency inmem",
                "thread hand-off floor (HandOffFloor) latency -", "LAPI Amsend latency inmem",
                "Portals Put (AmsendPingPong) latency inmem", "LAPI Amsend bandwidth inmem",
                "Portals Put (AmsendPingPong) bandwidth inmem");
        assertThat(sizes(json, "Portals Get bandwidth inmem")).as("the Put bandwidth rows' sizes")
                .containsExactly(8, Suite.MIB);
        assertThat(note(json, "Portals Put latency inmem")).as("where PingPong's rank threads ran")
                .startsWith("half round trip, PingPong; rank threads ")
                .contains("(--bind-to auto: inmem delivers inline");
        assertThat(r.out()).contains("# Portals Put (inmem): half round trip, PingPong; rank threads ");
        assertThat(Files.readString(out.resolve("index.html"))).contains("How each row was measured",
                "half round trip, PingPong; rank threads ");

        Map<String, String> skipped = skipped(json);
        assertThat(skipped).containsKeys("Open MPI 4.1 shared memory and Open MPI 4.1 TCP loopback",
                "libfabric fi_pingpong", "libfabric fi_rdm_pingpong", "Portals3J MPI layer on inmem",
                "Isotach vs noniso MBM on inmem",
                "C through libportals3 vs Java API", "C UDP sockets, busy-poll and C TCP sockets, busy-poll",
                "LAPI Amsend vs PtlPut from C (lapi_bench) on udp");
        assertThat(skipped.get("Portals Put on udp-crc32c")).isEqualTo("udp is not in --transport inmem");
        assertThat(r.out()).contains("skipped: not selected (--peers");

        assertThat(json.get("goals")).hasSize(13);
        List<String> lapiGoals = new ArrayList<>();
        for (JsonNode g : json.get("goals")) {
            String name = g.get("name").asText();
            if (name.startsWith("LAPI Amsend ") && name.endsWith("(inmem)")) {
                lapiGoals.add(name);
                assertThat(g.get("ratio").asDouble()).as(name + ": Amsend over the Put of the same run").isPositive();
                assertThat(g.get("verdict").asText()).as(name).isIn("met", "missed");
            } else {
                assertThat(g.get("verdict").asText()).as(name).startsWith("not measured: ");
            }
        }
        assertThat(lapiGoals).containsExactly("LAPI Amsend 8 B / Put 8 B (inmem)",
                "LAPI Amsend 1 KiB / Put 1 KiB (inmem)", "LAPI Amsend 1 MiB bandwidth / Put's (inmem)");

        for (String plot : List.of("latency", "bandwidth")) {
            byte[] png = Files.readAllBytes(out.resolve(plot + ".png"));
            assertThat(png).as(plot + ".png").startsWith(0x89, 'P', 'N', 'G');
            assertThat(Files.readString(out.resolve(plot + ".svg"))).as(plot + ".svg").contains("<svg");
        }
        String html = Files.readString(out.resolve("index.html"));
        assertThat(html).contains("<h2>Goals", "not measured", "latency.svg", "bandwidth.svg",
                "skipped: not selected", "Portals Put (inmem)<br>/ thread hand-off",
                "LAPI Amsend (inmem)<br>/ thread hand-off floor",
                "LAPI Amsend (inmem)<br>/ Portals Put (AmsendPingPong)");
        assertThat(html).as("a whole get is no half round trip: no ratio column")
                .doesNotContain("Portals Get (whole get) (inmem)<br>/");
    }

    @Test
    void quickRunOnUdpGivesTheCrc32cAndLibfabricRowsFiguresOrAReasonToSkip(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        Run r = run(loadavg(dir, "0.05"), "--transport", "udp", "--quick", "--iterations", "20", "--peers",
                "fi_pingpong,fi_rdm_pingpong,sockets", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = JSON.readTree(out.resolve("results.json").toFile());
        List<String> rows = rowsWithPositiveFigures(json);
        assertThat(rows).contains("Portals Put latency udp-crc32c", "Portals Put bandwidth udp-crc32c",
                "Portals Get bandwidth udp", "Portals Get rate udp", "C UDP sockets, busy-poll latency -",
                "C TCP sockets, busy-poll latency -");
        assertThat(sizes(json, "C UDP sockets, busy-poll latency -")).as("one datagram: up to 32 KiB")
                .containsExactly(8, 1024);
        assertThat(sizes(json, "C TCP sockets, busy-poll latency -")).containsExactly(8, 1024, 64 * 1024);
        assertThat(note(json, "C UDP sockets, busy-poll latency -")).as("where the processes ran")
                .contains("socket_floor udp", "2 processes");
        assertThat(sizes(json, "Portals Put bandwidth udp-crc32c")).containsExactly(Suite.MIB);

        Map<String, String> skipped = skipped(json);
        assertThat(skipped.keySet()).as("a failed row would be reported under its provider's attempt")
                .noneMatch(name -> name.startsWith("libfabric peers on"));
        for (String row : List.of("libfabric fi_pingpong tcp;ofi_rxm", "libfabric fi_pingpong shm",
                "libfabric fi_rdm_pingpong tcp;ofi_rxm", "libfabric fi_rdm_pingpong shm")) {
            if (!rows.contains(row + " latency -")) {
                assertThat(skipped).as(row + ": figures or a reason").containsKey(row);
                assertThat(skipped.get(row)).as(row).doesNotStartWith("failed");
            }
        }
        for (String provider : Suite.LIBFABRIC_PROVIDERS) {
            boolean measured = rows.contains("Portals Put latency gm/" + provider);
            boolean libfabricRan = rows.contains("libfabric fi_pingpong " + FiPingPong.libfabricProvider(provider)
                    + " latency -") || rows.contains("libfabric fi_rdm_pingpong "
                    + FiPingPong.libfabricProvider(provider) + " latency -");
            if (libfabricRan && !measured) {
                assertThat(skipped.get("Portals Put over gm (" + provider + ")")).as("gm on " + provider)
                        .startsWith("the gm transport cannot run here: ");
            }
        }

        JsonNode crc = null;
        for (JsonNode g : json.get("goals")) {
            if (g.get("name").asText().startsWith("udp-crc32c Put 1 MiB bandwidth")) {
                crc = g;
            }
        }
        assertThat(crc).as("the integrity-only goal").isNotNull();
        assertThat(crc.get("goal").asText()).isEqualTo(">= 0.9x");
        assertThat(crc.get("verdict").asText()).as("measured, but Open MPI was not selected")
                .isEqualTo("not measured: no Open MPI 4.1 TCP loopback bandwidth in this run");
    }

    @Test
    void lapiFromCGivesAmsendAndPutOfOneProgramAndTheirGoals(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        Run r = run(loadavg(dir, "0.05"), "--transport", "udp", "--quick", "--iterations", "20", "--peers", "lapi_c",
                "--native", "../native-shim/target/native", "--source", "../native-shim/src/test/c", "--out",
                out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = JSON.readTree(out.resolve("results.json").toFile());
        assertThat(skipped(json)).as("lapi_c ran")
                .doesNotContainKey("LAPI Amsend vs PtlPut from C (lapi_bench) on udp");
        List<String> rows = rowsWithPositiveFigures(json);
        assertThat(rows).contains("LAPI Amsend from C latency udp", "PtlPut from C (lapi_bench) latency udp",
                "LAPI Amsend from C bandwidth udp", "PtlPut from C (lapi_bench) bandwidth udp");
        assertThat(sizes(json, "LAPI Amsend from C latency udp")).containsExactly(8, 1024);
        assertThat(sizes(json, "PtlPut from C (lapi_bench) bandwidth udp")).containsExactly(Suite.MIB);
        assertThat(note(json, "LAPI Amsend from C latency udp")).as("how and where it ran")
                .startsWith("lapi_bench, 2 processes, ").containsPattern("rank 0 on CPU \\d+|ranks not bound \\(");
        List<String> measured = new ArrayList<>();
        for (JsonNode g : json.get("goals")) {
            String name = g.get("name").asText();
            if (name.startsWith("LAPI Amsend from C")) {
                assertThat(g.get("ratio").asDouble()).as(name).isPositive();
                measured.add(name + ": " + g.get("goal").asText());
            }
        }
        assertThat(measured).containsExactly("LAPI Amsend from C 8 B / Put 8 B (udp): <= 1.3x",
                "LAPI Amsend from C 1 KiB / Put 1 KiB (udp): <= 1.3x",
                "LAPI Amsend from C 1 MiB bandwidth / Put's (udp): >= 0.8x");
    }

    /** The series as "name kind transport", asserting every figure of each is positive. */
    private static List<String> rowsWithPositiveFigures(JsonNode json) {
        List<String> rows = new ArrayList<>();
        for (JsonNode s : json.get("series")) {
            String row = s.get("name").asText() + " " + s.get("kind").asText() + " " + s.get("transport").asText();
            rows.add(row);
            assertThat(s.get("unit").asText()).as(row).isNotBlank();
            assertThat(s.get("points")).as(row).isNotEmpty();
            for (JsonNode p : s.get("points")) {
                assertThat(p.get("size").asInt()).as(row).isPositive();
                assertThat(p.get("value").asDouble()).as(row + " at " + p.get("size")).isPositive();
                assertThat(p.get("p99").isNull() || p.get("p99").asDouble() > 0).as(row + " p99").isTrue();
            }
        }
        return rows;
    }

    private static String note(JsonNode json, String row) {
        for (JsonNode s : json.get("series")) {
            if (row.equals(s.get("name").asText() + " " + s.get("kind").asText() + " " + s.get("transport").asText())) {
                return s.get("note").asText();
            }
        }
        throw new AssertionError("no row " + row);
    }

    private static List<Integer> sizes(JsonNode json, String row) {
        for (JsonNode s : json.get("series")) {
            if (row.equals(s.get("name").asText() + " " + s.get("kind").asText() + " " + s.get("transport").asText())) {
                List<Integer> sizes = new ArrayList<>();
                s.get("points").forEach(p -> sizes.add(p.get("size").asInt()));
                return sizes;
            }
        }
        throw new AssertionError("no row " + row);
    }

    /** Skipped rows: name to reason, asserting each has one. */
    private static Map<String, String> skipped(JsonNode json) {
        Map<String, String> skipped = new LinkedHashMap<>();
        for (JsonNode k : json.get("skipped")) {
            assertThat(k.get("why").asText()).as(k.get("name").asText()).isNotBlank();
            skipped.put(k.get("name").asText(), k.get("why").asText());
        }
        return skipped;
    }

    @Test
    void aBusyMachineWithRequireIdleIsRefusedBeforeMeasuring(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        Run r = run(loadavg(dir, "7.50"), "--transport", "inmem", "--quick", "--require-idle", "--out",
                out.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("machine not idle: load 7.50", "--require-idle");
        assertThat(out).doesNotExist();
    }

    @Test
    void theIdleWarningGoesIntoTheJsonAndTheHtml() throws IOException {
        String warning = Suite.idleWarning(2.5, Suite.DEFAULT_IDLE_THRESHOLD);
        assertThat(warning).startsWith("machine not idle: load 2.50");
        assertThat(Suite.idleWarning(0.5, Suite.DEFAULT_IDLE_THRESHOLD)).isNull();
        SuiteReport report = new SuiteReport("2026-01-01T00:00:00Z", Map.of("cores", "2"), 2.5, warning, true,
                List.of(new SuiteReport.Series("Portals Put", SuiteReport.LATENCY, "udp", false, "p50",
                        List.of(new SuiteReport.Point(8, 2.0, 4.0)), null),
                        new SuiteReport.Series(Suite.OMPI_TCP, SuiteReport.LATENCY, "-", true, "p50",
                                List.of(new SuiteReport.Point(8, 4.0, 2.0)), "a \"quoted\" note")),
                List.of(), List.of(new SuiteReport.Goal("udp 8 B p50", 2.0, 4.0, "us", true, 0.65, null),
                        new SuiteReport.Goal("udp 8 B p99", 4.0, 2.0, "us", true, 1.5, null)));
        JsonNode json = JSON.readTree(report.json());
        assertThat(json.get("warning").asText()).isEqualTo(warning);
        assertThat(json.get("idle").asBoolean()).isFalse();
        assertThat(json.get("series").get(1).get("note").asText()).isEqualTo("a \"quoted\" note");
        assertThat(json.get("goals").get(0).get("ratio").asDouble()).isEqualTo(0.5);
        assertThat(json.get("goals").get(0).get("verdict").asText()).isEqualTo("met");
        assertThat(json.get("goals").get(1).get("verdict").asText()).isEqualTo("missed");
        assertThat(report.html()).contains(warning, "class=\"met\"", "class=\"missed\"", "0.50x");
    }

    @Test
    void anUnknownPeerIsABadOption(@TempDir Path dir) throws IOException {
        Run r = run(loadavg(dir, "0.00"), "--peers", "openmpi,nccl");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown peer 'nccl'", "usage: portals bench");
    }

    @Test
    void openMpisPercentileRowsAreParsedBySize() {
        Map<Integer, double[]> rows = OpenMpiPeer.parsePercentiles("""
                # OSU MPI Latency Test (percentiles of the half round trip)
                # Size         P50 (us)          P99 (us)
                0                      0.095             0.125
                8                      0.105             0.135
                """);
        assertThat(rows).containsOnlyKeys(0, 8);
        assertThat(rows.get(8)).containsExactly(0.105, 0.135);
    }
}
