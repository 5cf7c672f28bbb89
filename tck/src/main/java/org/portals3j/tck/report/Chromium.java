package org.portals3j.tck.report;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A headless Chromium, run as a real process to look at a report as a browser shows it: the DOM after the
 * page's scripts ran, or a picture. Each call starts a browser with a fresh profile in a temporary
 * directory and leaves nothing behind: no process (the browser's helpers included) and no directory.
 *
 * <p>Found as: the path in the system property {@value #PATH_PROPERTY} or the environment variable
 * {@value #PATH_ENV}; else {@code /usr/bin/chromium} (Debian's package); else {@code chromium},
 * {@code chromium-browser}, {@code google-chrome} or {@code google-chrome-stable} on the {@code PATH}.
 */
public final class Chromium {
    /** System property naming the browser executable. */
    public static final String PATH_PROPERTY = "portals3j.chromium";
    /** Environment variable naming the browser executable (when the property is not set). */
    public static final String PATH_ENV = "PORTALS3J_CHROMIUM";
    /** How long one browser run may take before it is killed, unless {@link #withTimeout} says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /**
     * How the temporary directory of one browser run begins, followed by the pid of the JVM that made it: a run's
     * profile and its processes can be told from those of another JVM's runs.
     */
    public static final String WORK_PREFIX = "portals3j-chromium-";

    private static final Path DEBIAN = Path.of("/usr/bin/chromium");
    private static final List<String> NAMES =
            List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");
    /**
     * Headless, and quiet: no sandbox (it needs user namespaces, which containers and root lack), no GPU, no
     * network of its own (updates, sync, QUIC), no first-run dialogs and no crash reporter (its handler
     * process would outlive the browser).
     */
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--disable-crash-reporter", "--disable-breakpad",
            "--disable-dev-shm-usage", "--mute-audio");
    private static final int TAIL_LINES = 15;

    private final Path executable;
    private final Duration timeout;

    private Chromium(Path executable, Duration timeout) {
        this.executable = executable;
        this.timeout = timeout;
    }

    /**
     * The browser of this machine.
     *
     * @throws ChromiumException when none is found (the message says how to install one), or when
     *         {@value #PATH_PROPERTY} or {@value #PATH_ENV} names a file that is not executable
     */
    public static Chromium find() {
        @Nullable String explicit = System.getProperty(PATH_PROPERTY);
        String from = "-D" + PATH_PROPERTY;
        if (explicit == null || explicit.isBlank()) {
            explicit = System.getenv(PATH_ENV);
            from = PATH_ENV;
        }
        if (explicit != null && !explicit.isBlank()) {
            Path named = Path.of(explicit);
            if (!Files.isRegularFile(named) || !Files.isExecutable(named)) {
                throw new ChromiumException(from + " names " + explicit + ", which is not an executable file");
            }
            return at(named);
        }
        if (Files.isExecutable(DEBIAN)) {
            return at(DEBIAN);
        }
        String path = Objects.requireNonNullElse(System.getenv("PATH"), "");
        for (String name : NAMES) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    Path candidate = Path.of(dir, name);
                    if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                        return at(candidate);
                    }
                }
            }
        }
        throw new ChromiumException("no Chromium found (looked for " + DEBIAN + " and for " + String.join(", ", NAMES)
                + " on the PATH): install Debian's chromium ('apt-get install chromium'; "
                + "'./portals test' does it when run"
                + " as root), or name a Chrome or Chromium with -D" + PATH_PROPERTY + "=PATH or " + PATH_ENV + "=PATH");
    }

    /** The browser at {@code executable}, as is. */
    public static Chromium at(Path executable) {
        return new Chromium(executable.toAbsolutePath(), DEFAULT_TIMEOUT);
    }

    /** The same browser, killed when one run takes longer than {@code limit}. */
    public Chromium withTimeout(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive, not " + limit);
        }
        return new Chromium(executable, limit);
    }

    /** The executable that is run. */
    public Path executable() {
        return executable;
    }

    /** The document of {@code html} as serialised after it loaded and its scripts ran ({@code --dump-dom}). */
    public String dumpDom(Path html) {
        return dumpDom(page(html));
    }

    /** The document at {@code page} (a {@code file:} URI may carry a fragment, e.g. {@code report.html#failed}). */
    public String dumpDom(URI page) {
        return run(page, List.of("--dump-dom"), "dumping the DOM of " + page);
    }

    /**
     * Takes a picture of the top {@code width} x {@code height} pixels of {@code html}, as a PNG of exactly
     * that size, into {@code png} (replaced if it exists).
     */
    public void screenshot(Path html, Path png, int width, int height) {
        screenshot(page(html), png, width, height);
    }

    /**
     * Takes a picture of the page at {@code page}; a {@code file:} URI may carry a fragment, e.g.
     * {@code report.html#failed} for a report's failed assertions. (A fragment that scrolls to an element
     * gives headless Chromium a blank picture; a fragment that a page's script reads does not.)
     */
    public void screenshot(URI page, Path png, int width, int height) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("a screenshot needs a positive size, not " + width + "x" + height);
        }
        Path target = png.toAbsolutePath();
        String what = "taking a screenshot of " + page + " into " + png;
        try {
            Path dir = target.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.deleteIfExists(target);
        } catch (IOException e) {
            throw new ChromiumException(what + ": " + e, e);
        }
        run(page, List.of("--hide-scrollbars", "--force-device-scale-factor=1",
                "--window-size=" + width + "," + height, "--screenshot=" + target), what);
        if (!Files.isRegularFile(target)) {
            throw new ChromiumException(what + ": Chromium finished but wrote no " + target);
        }
    }

    private static URI page(Path html) {
        if (!Files.isRegularFile(html)) {
            throw new ChromiumException("no page to show: " + html + " is not a file");
        }
        return html.toAbsolutePath().toUri();
    }

    /** Runs the browser once on {@code page}; returns what it wrote to its standard output. */
    private String run(URI page, List<String> operation, String what) {
        Path work;
        try {
            work = Files.createTempDirectory(WORK_PREFIX + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            throw new ChromiumException(what + ": cannot make a temporary directory: " + e, e);
        }
        String output = "";
        @Nullable ChromiumException failure = null;
        try {
            output = runIn(work, page, operation, what);
        } catch (ChromiumException e) {
            failure = e;
        }
        try {
            delete(work);
        } catch (ChromiumException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return output;
    }

    private String runIn(Path work, URI page, List<String> operation, String what) {
        Path profile = work.resolve("profile");
        Path stdout = work.resolve("stdout.txt");
        Path stderr = work.resolve("stderr.txt");
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(FLAGS);
        command.add("--user-data-dir=" + profile);
        command.addAll(operation);
        command.add(page.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new ChromiumException(what + ": cannot start " + executable + ": " + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new ChromiumException(what + ": " + executable + " did not finish within " + seconds(timeout)
                        + " and was killed; the end of its output:\n" + tail(stderr));
            }
            if (process.exitValue() != 0) {
                throw new ChromiumException(what + ": " + executable + " exited with status " + process.exitValue()
                        + "; the end of its output:\n" + tail(stderr));
            }
            return Files.readString(stdout, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChromiumException(what + ": interrupted while waiting for the browser", e);
        } catch (IOException e) {
            throw new ChromiumException(what + ": cannot read the browser's output: " + e, e);
        } finally {
            stop(process, profile.toString());
        }
    }

    /**
     * Ends the browser and every process it started. Its helpers are its descendants while it lives; one
     * that outlived it is no longer a descendant, so it is recognised by the unique profile directory on its
     * command line. Each is ended by its process id.
     */
    private static void stop(Process browser, String profile) {
        List<ProcessHandle> ours = new ArrayList<>(browser.descendants().toList());
        ours.add(browser.toHandle());
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            all.filter(h -> h.info().commandLine().map(c -> c.contains(profile)).orElse(false)).forEach(ours::add);
        }
        for (ProcessHandle h : ours) {
            h.destroyForcibly();
        }
        for (ProcessHandle h : ours) {
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // A process that will not die within 5 s after SIGKILL is the kernel's business now.
            }
        }
    }

    /** Deletes the run's directory; a browser helper may still be closing files, so it tries three times. */
    private static void delete(Path dir) {
        for (int attempt = 1; ; attempt++) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (IOException | UncheckedIOException e) {
                if (attempt == 3) {
                    throw new ChromiumException("cannot delete the browser's temporary directory " + dir + ": " + e, e);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * The last lines the browser wrote to its error output. Chromium logs that it cannot reach D-Bus on
     * every run on a machine without a desktop; those lines are left out so that the real error shows.
     */
    private static String tail(Path stderr) {
        List<String> lines;
        try {
            lines = Files.readAllLines(stderr, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "(its error output cannot be read: " + e + ")";
        }
        List<String> telling = lines.stream().filter(l -> !l.isBlank() && !l.contains(":ERROR:dbus/")).toList();
        List<String> shown = telling.isEmpty() ? lines : telling;
        List<String> end = shown.subList(Math.max(0, shown.size() - TAIL_LINES), shown.size());
        return end.isEmpty() ? "(it wrote nothing)" : String.join("\n", end);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
