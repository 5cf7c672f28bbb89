package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.launcher.thirdparty.AbsentLibraryTransportProvider;
import org.portals3j.launcher.thirdparty.ThirdPartyTransportProvider;

/** {@code portals tck} and {@code portals info} as a user runs them: a real launcher JVM each time. */
class TckCommandTest {
    @TempDir
    @SuppressWarnings("initialization.field.uninitialized") // JUnit injects it before each test
    Path dir;

    private static LauncherProcess ran(String... args) throws Exception {
        LauncherProcess run = LauncherProcess.start(args);
        run.await();
        return run;
    }

    @Test
    void aPassingRunExitsZeroShowsTheMatrixAndWritesHtmlJunitXmlAndTap() throws Exception {
        Path report = dir.resolve("report");
        LauncherProcess run = ran("tck", "--transport", "inmem", "--assertion", "P-001,P-061,I-017,L-005",
                "--report", report.toString());
        assertThat(run.process.exitValue()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).anyMatch(l -> l.matches("Running (at least )?\\d+ tests on inmem.*"))
                .anyMatch(l -> l.matches("inmem: \\d+ passed, 0 failed, 0 skipped in .*"))
                .anyMatch(l -> l.matches("  Initialisation +1 ok  5 not run"))
                .anyMatch(l -> l.matches("  Isochrons +[1-7] ok.*"))
                .anyMatch(l -> l.matches("  Event queues +20 not run"))
                .anyMatch(l -> l.matches("LAPI +inmem"))
                .anyMatch(l -> l.matches("  Arguments +1 ok  6 not run"))
                .last().isEqualTo("HTML report: " + report.resolve("index.html").toAbsolutePath());
        assertThat(Files.readString(report.resolve("index.html"))).contains("P-061");
        String tap = Files.readString(report.resolve("tck-inmem.tap"));
        assertThat(tap).startsWith("TAP version 14\n1..").contains("ok 1 - ").doesNotContain("not ok");
        try (var xml = Files.list(report.resolve("junit").resolve("inmem"))) {
            Path file = xml.filter(p -> p.toString().endsWith(".xml")).findFirst().orElseThrow();
            assertThat(Files.readString(file)).contains("<testcase").contains("failures=\"0\"");
        }
    }

    /** A misspelt --transport is a usage error found before the run: the last good report stays as it was. */
    @Test
    void aTransportNameNoProviderHasIsAUsageErrorThatLeavesTheLastReportAlone() throws Exception {
        Path lastGood = dir.resolve("index.html");
        Files.writeString(lastGood, "<!DOCTYPE html><title>the last good run</title>");
        LauncherProcess run = ran("tck", "--transport", "udpp", "--report", dir.toString());
        assertThat(run.process.exitValue()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals tck: --transport udpp: no transport provider of that name on the"
                + " class path (found: gm, inmem, udp; a transport of your own comes with -cp JAR); nothing was run"
                + " and " + dir + " was left as it was");
        assertThat(run.out).as("nothing ran").isEmpty();
        assertThat(Files.readString(lastGood)).isEqualTo("<!DOCTYPE html><title>the last good run</title>");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> String.valueOf(p.getFileName())).toList()).containsExactly("index.html");
        }
    }

    @Test
    void aThirdPartyTransportJarGivenWithCpIsListedAndChecked() throws Exception {
        Path jar = providerJar(dir.resolve("my-transport.jar"));

        LauncherProcess info = ran("info", "-cp", jar.toString());
        assertThat(info.process.exitValue()).isZero();
        assertThat(String.join("\n", info.out))
                .contains("thirdparty:\n    description:  a test transport from a jar given with -cp (over inmem)\n"
                        + "    capabilities: single-process\n    available:    yes")
                .contains("absent-lib:\n    description:  a test transport whose native library is not installed\n"
                        + "    capabilities: multi-process, native\n    available:    no: "
                        + AbsentLibraryTransportProvider.REASON)
                .contains("inmem:").contains("udp:");

        LauncherProcess tck = ran("tck", "-cp", jar.toString(), "--transport", "thirdparty", "--transport",
                "absent-lib",
                "--assertion", "P-001", "--report", dir.resolve("r").toString());
        assertThat(tck.out).anyMatch(l -> l.matches("thirdparty: [1-9]\\d* passed, 0 failed, 0 skipped in .*"))
                .contains("absent-lib: not available: " + AbsentLibraryTransportProvider.REASON);
        assertThat(tck.process.exitValue()).as("a transport named on the command line could not be used").isEqualTo(1);
    }

    @Test
    void screenshotSavesAPictureOfTheReport() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromium")),
                "Debian's chromium is not installed ('./portals test' installs it when run as root)");
        Path report = dir.resolve("shot");
        LauncherProcess run = ran("tck", "--transport", "inmem", "--assertion", "P-001", "--screenshot",
                "--report", report.toString());
        assertThat(run.process.exitValue()).as("stdout %s stderr %s", run.out, run.err).isZero();
        Path png = report.resolve("index.png").toAbsolutePath();
        assertThat(run.out).contains("Screenshot: " + png);
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes).hasSizeGreaterThan(10_000).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void screenshotWithoutABrowserIsRefusedBeforeTheRun() throws Exception {
        LauncherProcess run = LauncherProcess.startWithEnv(Map.of("PORTALS3J_CHROMIUM", "/nonexistent/chromium"),
                "tck", "--screenshot", "--report", dir.toString());
        run.await();
        assertThat(run.process.exitValue()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals tck: --screenshot: PORTALS3J_CHROMIUM names /nonexistent/chromium,"
                + " which is not an executable file");
        assertThat(run.out).as("nothing ran").isEmpty();
    }

    @Test
    void infoWithoutExtrasListsTheShippedTransportsAsAvailable() throws Exception {
        LauncherProcess info = ran("info");
        assertThat(info.process.exitValue()).isZero();
        assertThat(info.out).containsSubsequence("inmem:", "    available:    yes", "udp:", "    available:    yes");
        assertThat(info.out).as("gm is listed, available or with what to install")
                .anyMatch(l -> l.equals("gm:")).anyMatch(l -> l.startsWith("    available:    yes")
                        || l.contains("libfabric1") || l.contains("native-gm"));
        assertThat(info.out).as("gm's notes: a line for each libfabric provider, net's with its workaround")
                .anyMatch(l -> l.startsWith("    notes:        gm.provider=tcp (tcp;ofi_rxm, the default): "))
                .anyMatch(l -> l.startsWith("                  gm.provider=shm (shm): "))
                .anyMatch(l -> l.startsWith("                  gm.provider=udp (udp;ofi_rxd): "))
                .anyMatch(l -> l.startsWith("                  gm.provider=net (net): "));
    }

    @Test
    void anAssertionIdNotInTheCatalogueIsAUsageErrorSayingHowToListTheKnownOnes() throws Exception {
        LauncherProcess unknown = ran("tck", "--transport", "inmem", "--assertion", "P-061,P-999",
                "--report", dir.toString());
        assertThat(unknown.process.exitValue()).isEqualTo(2);
        assertThat(unknown.err).containsExactly("portals tck: --assertion P-999 is not in the kit's catalogue; list the"
                + " known ids with: portals tck --list-assertions");
        assertThat(unknown.out).as("nothing ran").isEmpty();
        LauncherProcess list = ran("tck", "--list-assertions");
        assertThat(list.process.exitValue()).isZero();
        assertThat(list.out).anyMatch(l -> l.startsWith("P-061\t")).anyMatch(l -> l.startsWith("I-017\t"))
                .anyMatch(l -> l.startsWith("P-003\t") && l.contains("\tno\t"))
                .anyMatch(l -> l.startsWith("I-020\t") && l.contains("\tpartial\t"))
                .noneMatch(l -> l.startsWith("P-999")).noneMatch(l -> l.startsWith("Running"));
    }

    @Test
    void aRunThatExecutesNoTestIsNotAPass() throws Exception {
        // P-003 is in the catalogue but marked not testable: no kit test names it
        LauncherProcess run = ran("tck", "--transport", "inmem", "--assertion", "P-003", "--report", dir.toString());
        assertThat(run.process.exitValue()).as("stdout %s stderr %s", run.out, run.err).isEqualTo(1);
        assertThat(run.err).containsExactly("portals tck: no test ran, so nothing passed: the kit has no test of P-003"
                + " (an assertion marked engine or no in portals tck --list-assertions is checked elsewhere or not at"
                + " all)");
    }

    /**
     * {@code --seed N} reaches the kit's randomised tests: each prints "seed N (replay with ...)", and a run given
     * the seed a run without it printed uses that seed again in every randomised test.
     */
    @Test
    void theSeedOptionReachesTheRandomisedTestsWhichPrintItAndReplaysAPrintedSeed() throws Exception {
        LauncherProcess fresh = ran("tck", "--transport", "inmem", "--assertion", "I-079", "--report",
                dir.resolve("fresh").toString());
        assertThat(fresh.process.exitValue()).as("stdout %s stderr %s", fresh.out, fresh.err).isZero();
        List<Long> printed = seeds(fresh.out);
        assertThat(printed).as("the 4- and 6-host randomised shared-memory tests each print a seed, in %s",
                fresh.out).hasSize(2);
        assertThat(printed.get(0)).as("a new seed for every test without --seed (equal once in 2^64 runs)")
                .isNotEqualTo(printed.get(1));

        long seed = printed.get(0);
        LauncherProcess replayed = ran("tck", "--transport", "inmem", "--assertion", "I-079", "--seed",
                Long.toString(seed), "--report", dir.resolve("replayed").toString());
        assertThat(replayed.process.exitValue()).as("stdout %s stderr %s", replayed.out, replayed.err).isZero();
        assertThat(replayed.out).contains(
                "RandomSharedMemoryTest, 4 hosts: seed " + seed + " (replay with -Dportals3j.tck.seed=" + seed + ")",
                "RandomSharedMemoryTest, 6 hosts: seed " + seed + " (replay with -Dportals3j.tck.seed=" + seed + ")");
        assertThat(seeds(replayed.out)).as("every randomised test of the run uses the given seed")
                .containsExactly(seed, seed);

        LauncherProcess notANumber = ran("tck", "--seed", "forty-two", "--report", dir.toString());
        assertThat(notANumber.process.exitValue()).isEqualTo(2);
        assertThat(notANumber.err).hasSize(1).first().asString().contains("--seed").contains("forty-two");
    }

    /** The seeds the randomised tests printed ("...: seed N (replay with -Dportals3j.tck.seed=N)"), in order. */
    private static List<Long> seeds(List<String> out) {
        Pattern line = Pattern.compile(".*: seed (-?\\d+) \\(replay with -Dportals3j\\.tck\\.seed=\\1\\)");
        List<Long> seeds = new ArrayList<>();
        for (String l : out) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                seeds.add(Long.parseLong(String.valueOf(m.group(1))));
            }
        }
        return seeds;
    }

    @Test
    void badOptionsAreOneLineUsageErrors() throws Exception {
        LauncherProcess badId = ran("tck", "--assertion", "X-1", "--report", dir.toString());
        assertThat(badId.process.exitValue()).isEqualTo(2);
        assertThat(badId.err)
                .containsExactly("portals tck: --assertion takes ids like P-061, I-017 or L-042, not 'X-1'");
        LauncherProcess badPatience = ran("tck", "--patience", "0", "--report", dir.toString());
        assertThat(badPatience.process.exitValue()).isEqualTo(2);
        assertThat(badPatience.err)
                .containsExactly("portals tck: --patience must be a positive number of seconds, not 0.0");
        LauncherProcess unknown = ran("tck", "--frobnicate");
        assertThat(unknown.process.exitValue()).isEqualTo(2);
        assertThat(unknown.err).hasSize(1).first().asString().contains("Unknown option: '--frobnicate'")
                .endsWith("(see: portals tck --help)");
    }

    @Test
    void everyCommandHasHelpThatExitsZero() throws Exception {
        for (String command : new String[] {"tck", "info", "run"}) {
            LauncherProcess help = ran(command, "--help");
            assertThat(help.process.exitValue()).isZero();
            assertThat(help.out).first().asString().startsWith("Usage: portals " + command);
            assertThat(help.out).as("no colour codes when the output is not a terminal")
                    .noneMatch(l -> l.contains("\u001b"));
        }
        LauncherProcess top = ran("--help");
        assertThat(top.process.exitValue()).isZero();
        assertThat(String.join("\n", top.out)).contains("tck").contains("info").contains("run");
    }

    /** A jar holding only a services file that names the two test providers, as a transport author ships it. */
    private static Path providerJar(Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("META-INF/services/org.portals3j.transport.TransportProvider"));
            out.write((ThirdPartyTransportProvider.class.getName() + "\n"
                    + AbsentLibraryTransportProvider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
