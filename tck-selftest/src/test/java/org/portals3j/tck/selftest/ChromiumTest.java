package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.tck.report.Chromium;
import org.portals3j.tck.report.ChromiumException;

/**
 * How the kit runs a browser, without needing one: small shell scripts stand in for Chromium, so what is
 * checked is the contract with the process (its command line, exit status, error output, a hang) and that
 * a run leaves no process and no directory behind. HtmlReportBrowserTest runs the real browser.
 */
class ChromiumTest {

    @Test
    void theBrowserIsRunHeadlessWithAFreshProfileOnTheFilesUrl(@TempDir Path dir) throws IOException {
        // prints its arguments one a line: that is the "DOM" it dumps
        Path browser = script(dir, "args", "for a in \"$@\"; do echo \"$a\"; done");
        Path page = page(dir);
        List<String> args = Arrays.asList(Chromium.at(browser).dumpDom(page).split("\n"));
        assertThat(args).contains("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--dump-dom");
        assertThat(args.getLast()).isEqualTo(page.toUri().toString());
        String profile = args.stream().filter(a -> a.startsWith("--user-data-dir=")).findFirst().orElseThrow()
                .substring("--user-data-dir=".length());
        Path runDir = Path.of(profile).toAbsolutePath().resolveSibling(".").normalize();
        assertThat(String.valueOf(runDir.getFileName())).as("named after this JVM")
                .startsWith(Chromium.WORK_PREFIX + ProcessHandle.current().pid() + "-");
        assertThat(runDir).as("the run's temporary directory is deleted").doesNotExist();
    }

    @Test
    void aBrowserThatFailsIsReportedWithItsStatusAndTheEndOfItsErrorOutput(@TempDir Path dir) throws IOException {
        Path browser = script(dir, "fails", """
                echo "[1:1:ERROR:dbus/bus.cc:405] Failed to connect to the bus" >&2
                echo "ERROR: the GPU process crashed" >&2
                echo "[1:1:ERROR:dbus/object_proxy.cc:572] Failed to call method" >&2
                exit 3""");
        assertThatThrownBy(() -> Chromium.at(browser).dumpDom(page(dir)))
                .isInstanceOf(ChromiumException.class)
                .hasMessageContaining("exited with status 3")
                .hasMessageContaining("the GPU process crashed")
                .hasMessageNotContaining("dbus");
    }

    @Test
    void aHungBrowserIsKilledWithItsChildrenAfterTheTimeout(@TempDir Path dir) throws Exception {
        // starts a child that would outlive it and records the child's pid beside the script
        Path browser = script(dir, "hangs", "sleep 300 & echo $! > \"$(dirname \"$0\")/child.pid\"; wait");
        long start = System.nanoTime();
        assertThatThrownBy(() -> Chromium.at(browser).withTimeout(Duration.ofSeconds(1)).dumpDom(page(dir)))
                .isInstanceOf(ChromiumException.class).hasMessageContaining("did not finish within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        long child = Long.parseLong(Files.readString(dir.resolve("child.pid")).strip());
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false))
                .as("the browser's child %d is gone", child).isFalse();
    }

    @Test
    void aScreenshotThatWasNotWrittenIsAnError(@TempDir Path dir) throws IOException {
        Path browser = script(dir, "draws-nothing", "exit 0");
        assertThatThrownBy(() -> Chromium.at(browser).screenshot(page(dir), dir.resolve("out.png"), 800, 600))
                .isInstanceOf(ChromiumException.class).hasMessageContaining("wrote no");
        assertThatThrownBy(() -> Chromium.at(browser).screenshot(page(dir), dir.resolve("out.png"), 0, 600))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBrowserNamedByThePropertyMustBeAnExecutable(@TempDir Path dir) {
        @Nullable String saved = System.getProperty(Chromium.PATH_PROPERTY);
        System.setProperty(Chromium.PATH_PROPERTY, dir.resolve("no-such-browser").toString());
        try {
            assertThatThrownBy(Chromium::find).isInstanceOf(ChromiumException.class)
                    .hasMessageContaining("-D" + Chromium.PATH_PROPERTY + " names ")
                    .hasMessageContaining("which is not an executable file");
        } finally {
            restore(saved);
        }
    }

    @SuppressWarnings("clear.system.property") // the kit's own property, never a predefined one
    private static void restore(@Nullable String value) {
        if (value == null) {
            System.clearProperty(Chromium.PATH_PROPERTY);
        } else {
            System.setProperty(Chromium.PATH_PROPERTY, value);
        }
    }

    @Test
    void aPageThatDoesNotExistIsRefusedBeforeAnyBrowserStarts(@TempDir Path dir) {
        assertThatThrownBy(() -> Chromium.at(Path.of("/bin/true")).dumpDom(dir.resolve("missing.html")))
                .isInstanceOf(ChromiumException.class).hasMessageContaining("is not a file");
    }

    private static Path script(Path dir, String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private static Path page(Path dir) throws IOException {
        Path page = dir.resolve("page.html");
        Files.writeString(page, "<!DOCTYPE html><p>hello</p>");
        return page;
    }
}
