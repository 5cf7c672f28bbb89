package org.portals3j.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.CodeSource;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code portals install --prefix DIR}: the C API and the launcher, installed as C users expect them and
 * independent of the build tree. Under DIR: {@code include/} portals3.h, portals3_rt.h, lapi.h;
 * {@code lib/} libportals3.so and {@code lib/portals3j/portals-launcher.jar} (the engine's classes, which the
 * installed libportals3 finds beside itself); {@code lib/pkgconfig/portals3.pc}; {@code bin/} portalscc and
 * portals; {@code share/man/man3/} the C API's man pages. The installed portalscc, portals3.pc and portals find
 * DIR from their own location, so DIR may move too. Files are copied, never linked into the build tree.
 */
@Command(name = "install", mixinStandardHelpOptions = true,
        description = "Installs the C API (headers, libportals3, portalscc, portals3.pc, man pages) and the launcher"
                + " under --prefix DIR.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:installed", "1:a file could not be written", "2:a usage or configuration error"},
        footer = {"%nExample:", "  portals install --prefix $HOME/.local",
            "  PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig cc prog.c $(pkg-config --cflags --libs portals3)"})
public final class InstallCommand implements Callable<Integer> {
    static final List<String> HEADERS = List.of("portals3.h", "portals3_rt.h", "lapi.h");
    static final String LAUNCHER_JAR = "portals-launcher.jar";

    @Option(names = "--prefix", required = true, paramLabel = "DIR", description = "where to install")
    @SuppressWarnings("initialization.field.uninitialized") // required: picocli sets it or reports a usage error
    Path prefix;

    @Option(names = "--native", paramLabel = "DIR",
            description = "the native build to install (default: native-shim/target/native of the build tree this"
                    + " launcher jar comes from)")
    @Nullable Path nativeBuild;

    @Override
    public Integer call() throws Exception {
        Path jar = launcherJar();
        Path from = nativeBuild != null ? nativeBuild
                : jar.resolveSibling("../../native-shim/target/native").normalize();
        if (!Files.isRegularFile(from.resolve("lib/libportals3.so"))) {
            throw new LauncherException("no libportals3.so in " + from + "/lib: build it (./portals build) or name"
                    + " the native build with --native DIR");
        }
        Path dir = prefix.toAbsolutePath().normalize();
        try {
            for (String header : HEADERS) {
                copy(from.resolve("include").resolve(header), dir.resolve("include").resolve(header));
            }
            copy(from.resolve("lib/libportals3.so"), dir.resolve("lib/libportals3.so"));
            copy(jar, dir.resolve("lib/portals3j").resolve(LAUNCHER_JAR));
            Path man = from.resolve("share/man/man3");
            try (Stream<Path> pages = Files.list(man)) {
                for (Path page : pages.filter(p -> p.toString().endsWith(".3")).toList()) {
                    copy(page, dir.resolve("share/man/man3").resolve(page.toFile().getName()));
                }
            }
            write(dir.resolve("bin/portalscc"), relocatablePortalscc(Files.readString(from.resolve("bin/portalscc"))),
                    true);
            write(dir.resolve("lib/pkgconfig/portals3.pc"),
                    relocatablePkgConfig(Files.readString(from.resolve("lib/pkgconfig/portals3.pc"))), false);
            write(dir.resolve("bin/portals"), portalsScript(System.getProperty("java.home")), true);
        } catch (IOException e) {
            throw new LauncherException("cannot install into " + dir + ": " + e, 1);
        }
        System.out.println("installed into " + dir + ": bin/portals, bin/portalscc, include/, lib/libportals3.so,"
                + " lib/pkgconfig/portals3.pc, share/man/man3");
        System.out.println("use: PATH=" + dir + "/bin:$PATH MANPATH=" + dir + "/share/man: PKG_CONFIG_PATH=" + dir
                + "/lib/pkgconfig");
        return 0;
    }

    /** portalscc with its prefix found from its own place ({@code DIR/bin/portalscc}) instead of the build's. */
    static String relocatablePortalscc(String script) throws LauncherException {
        return replaceLine(script, "prefix=", "prefix=$(cd \"$(dirname \"$0\")/..\" && pwd)", "portalscc");
    }

    /** portals3.pc with its prefix relative to the file itself ({@code ${pcfiledir}}, which pkg-config sets). */
    static String relocatablePkgConfig(String pc) throws LauncherException {
        String out = replaceLine(pc, "prefix=", "prefix=${pcfiledir}/../..", "portals3.pc");
        return out.lines().filter(l -> !l.startsWith("# (PKG_CONFIG_PATH="))
                .reduce("", (a, l) -> a + l + "\n");
    }

    /** The installed {@code portals}: the jar installed with it, on the installing JDK (or $PORTALS3J_JAVA_HOME). */
    static String portalsScript(String javaHome) {
        return """
                #!/bin/sh
                # portals: the Portals3J launcher, installed by portals install (portals --help)
                prefix=$(cd "$(dirname "$0")/.." && pwd)
                jdk=${PORTALS3J_JAVA_HOME:-'%s'}
                if [ ! -x "$jdk/bin/java" ]; then
                    echo "portals: no JDK at $jdk; set PORTALS3J_JAVA_HOME to a JDK 25" >&2
                    exit 2
                fi
                exec "$jdk/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \\
                    -jar "$prefix/lib/portals3j/%s" "$@"
                """.formatted(javaHome.replace("'", "'\\''"), LAUNCHER_JAR);
    }

    private static String replaceLine(String text, String start, String replacement, String what)
            throws LauncherException {
        StringBuilder out = new StringBuilder();
        boolean replaced = false;
        for (String line : text.split("\n", -1)) {
            if (!replaced && line.startsWith(start)) {
                out.append(replacement);
                replaced = true;
            } else {
                out.append(line);
            }
            out.append('\n');
        }
        if (!replaced) {
            throw new LauncherException("the build's " + what + " has no '" + start + "' line: rebuild it");
        }
        return out.substring(0, out.length() - 1);
    }

    /** The jar this class was loaded from: installing needs the launcher jar ({@code ./portals install}). */
    private static Path launcherJar() throws LauncherException {
        @Nullable CodeSource source = InstallCommand.class.getProtectionDomain().getCodeSource();
        Path path;
        try {
            @Nullable URL location = source == null ? null : source.getLocation();
            path = location == null ? Path.of("") : Path.of(location.toURI());
        } catch (URISyntaxException e) {
            path = Path.of("");
        }
        if (!path.toString().endsWith(".jar") || !Files.isRegularFile(path)) {
            throw new LauncherException("portals install runs from the launcher jar (./portals install, or java -jar"
                    + " launcher/target/" + LAUNCHER_JAR + " install); this launcher runs from " + path);
        }
        return path;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.resolveSibling(""));
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
    }

    private static void write(Path to, String content, boolean executable) throws IOException {
        Files.createDirectories(to.resolveSibling(""));
        Files.writeString(to, content);
        if (executable) {
            Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
