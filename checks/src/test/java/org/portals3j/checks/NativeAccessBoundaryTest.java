package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Native code is reached only through the native-access packages: {@code MethodHandle}, {@code Linker},
 * {@code SymbolLookup} and {@code FunctionDescriptor} appear in no main source outside them (the boundary of
 * Lucene's {@code NativeAccess}: nobody else sees a downcall), except the files listed with their reason.
 */
class NativeAccessBoundaryTest {

    /** The packages that bind native libraries, and why each may. */
    private static final Map<String, String> BOUNDARIES = Map.of(
            "org.portals3j.transport.gm.internal.nativeaccess", "the gm transport's bindings of libgm (gm.h, gmx.h)",
            "org.portals3j.fabric.internal", "libfabric-java's bindings of libfabric and its C glue",
            "org.portals3j.shim.internal.ffm", "native-shim's upcall table and downcalls of libportals3",
            "org.portals3j.transport.udp.internal.nativeaccess", "the udp transport's libc socket calls (udp.io)");

    /** Files outside the boundaries allowed some of the names: file (relative to the root) to names, and why. */
    private static final Map<String, Set<String>> EXCEPTIONS = Map.of(
            // reflection, not native code: a handle to a program's main, which throws main's exception unwrapped
            "launcher/src/main/java/org/portals3j/launcher/MainClasses.java", Set.of("MethodHandle"),
            // a benchmark (not shipped) of the downcall itself: an empty libc call is the baseline of gm's FFM cost
            "bench/src/main/java/org/portals3j/bench/GmCallCost.java",
            Set.of("MethodHandle", "Linker", "FunctionDescriptor"),
            // a benchmark (not shipped) of the kernel's UDP GSO/GRO: sendmsg and recvmsg with the control messages
            // the JDK's DatagramChannel does not expose
            "bench/src/main/java/org/portals3j/bench/UdpGsoBlast.java",
            Set.of("MethodHandle", "Linker", "FunctionDescriptor"),
            // a benchmark's (not shipped) thread placement: sched_setaffinity for PingPong --bind-to core
            "bench/src/main/java/org/portals3j/bench/CpuAffinity.java",
            Set.of("MethodHandle", "Linker", "FunctionDescriptor"));

    /** A use of one of the names: its import (single or on demand) or its fully qualified name. */
    private static final Pattern USE = Pattern.compile(
            "\\bjava\\.lang\\.invoke\\.(MethodHandle|\\*)(?![\\w$])|\\bjava\\.lang\\.foreign\\."
                    + "(Linker|SymbolLookup|FunctionDescriptor|\\*)(?![\\w$])");

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

    @Test
    void downcallTypesAppearOnlyInTheNativeAccessPackages() throws IOException {
        Path root = Build.root();
        List<String> offences = new ArrayList<>();
        Set<String> boundariesSeen = new TreeSet<>();
        for (Path file : mainSources(root)) {
            String text = Files.readString(file);
            Matcher p = PACKAGE.matcher(text);
            String pkg = p.find() ? String.valueOf(p.group(1)) : "";
            String relative = root.relativize(file).toString().replace('\\', '/');
            for (String name : uses(text)) {
                if (BOUNDARIES.containsKey(pkg)) {
                    boundariesSeen.add(pkg);
                } else if (!EXCEPTIONS.getOrDefault(relative, Set.of()).contains(name)) {
                    offences.add(relative + ": " + name);
                }
            }
        }
        assertThat(offences).as("downcall types outside the native-access packages %s: move the native call"
                + " into one of them and call it through a plain Java method", BOUNDARIES.keySet()).isEmpty();
        assertThat(boundariesSeen).as("every listed boundary package still binds native code (else drop it)")
                .containsExactlyInAnyOrderElementsOf(BOUNDARIES.keySet());
    }

    @Test
    void theExceptionsStillNeedTheirNames() throws IOException {
        Path root = Build.root();
        for (Map.Entry<String, Set<String>> e : EXCEPTIONS.entrySet()) {
            Path file = root.resolve(e.getKey());
            assertThat(file).as("an allowed file that is gone: drop it from EXCEPTIONS").isRegularFile();
            assertThat(uses(Files.readString(file))).as(e.getKey() + " uses what it is allowed")
                    .containsAll(e.getValue());
        }
    }

    @Test
    void thePatternCatchesImportsWildcardsAndQualifiedNames() {
        assertThat(uses("import java.lang.invoke.MethodHandle;")).containsExactly("MethodHandle");
        assertThat(uses("import java.lang.foreign.Linker;\nimport java.lang.foreign.SymbolLookup;"))
                .containsExactlyInAnyOrder("Linker", "SymbolLookup");
        assertThat(uses("var d = java.lang.foreign.FunctionDescriptor.ofVoid();"))
                .containsExactly("FunctionDescriptor");
        assertThat(uses("import java.lang.foreign.*;")).containsExactly("*");
        assertThat(uses("import java.lang.invoke.MethodHandles;\nimport java.lang.invoke.VarHandle;\n"
                + "import java.lang.foreign.MemorySegment;\n// a MethodHandle in a comment")).isEmpty();
    }

    /** The downcall names {@code text} uses ("*" for an on-demand import of their packages). */
    private static Set<String> uses(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = USE.matcher(text);
        while (m.find()) {
            String invoke = m.group(1);
            names.add(invoke != null ? invoke : String.valueOf(m.group(2)));
        }
        return names;
    }

    /** Every .java file under a src/main/java folder of the build, outside build output and hidden folders. */
    private static List<Path> mainSources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> root.relativize(f).toString().replace('\\', '/').contains("src/main/java/"))
                    .filter(f -> {
                        for (Path part : root.relativize(f)) {
                            String name = part.toString();
                            if (name.equals("target") || name.startsWith(".")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted().toList();
        }
    }
}
