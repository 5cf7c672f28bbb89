package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The library modules on the module path: their descriptors export no internal package to everyone, and an
 * application finds the transports through {@code provides} (not {@code META-INF/services}) and runs a job.
 */
class ModulePathTest {
    /** Library module folders, relative to the build's root, and the module each declares. */
    private static final Map<String, String> LIBRARIES = Map.of(
            "transports/spi", "org.portals3j.transport",
            "transports/inmem", "org.portals3j.transport.inmem",
            "transports/udp", "org.portals3j.transport.udp",
            "portals-api", "org.portals3j.portals",
            "isotach-core", "org.portals3j.isotach",
            "native-shim", "org.portals3j.shim",
            "layers/lapi", "org.portals3j.lapi",
            "layers/mpi", "org.portals3j.mpi",
            "transports/fabric", "org.portals3j.fabric",
            "transports/gm", "org.portals3j.transport.gm");

    private static final String TRANSPORT_PROVIDER = "org.portals3j.transport.TransportProvider";

    @Test
    void noLibraryExportsAnInternalPackageToEveryone() {
        Map<String, ModuleDescriptor> modules = descriptors();
        assertThat(modules).containsOnlyKeys(LIBRARIES.values());
        for (ModuleDescriptor m : modules.values()) {
            for (Exports e : m.exports()) {
                if (e.source().contains(".internal")) {
                    assertThat(e.isQualified()).as("%s exports %s to everyone", m.name(), e.source()).isTrue();
                }
            }
        }
        Map<String, Set<String>> spiExports = new TreeMap<>();
        module(modules, "org.portals3j.transport").exports().forEach(e -> spiExports.put(e.source(), e.targets()));
        assertThat(spiExports).containsOnlyKeys("org.portals3j.transport", "org.portals3j.runtime",
                "org.portals3j.transport.internal");
        assertThat(spiExports.getOrDefault("org.portals3j.transport.internal", Set.of()))
                .containsExactlyInAnyOrder("org.portals3j.transport.inmem", "org.portals3j.transport.udp",
                        "org.portals3j.transport.gm", "org.portals3j.portals", "org.portals3j.isotach");
    }

    @Test
    void theSpiUsesTheProviderServiceAndBothTransportsProvideIt() {
        Map<String, ModuleDescriptor> modules = descriptors();
        assertThat(module(modules, "org.portals3j.transport").uses()).contains(TRANSPORT_PROVIDER);
        for (String transport : List.of("org.portals3j.transport.inmem", "org.portals3j.transport.udp")) {
            assertThat(module(modules, transport).provides()).as("%s provides", transport)
                    .anySatisfy(p -> assertThat(p.service()).isEqualTo(TRANSPORT_PROVIDER));
        }
    }

    @Test
    void anApplicationOnTheClassPathRunsAJobOnEachTransportFromTheModulePath() throws Exception {
        List<String> modulePath = new ArrayList<>();
        for (String folder : new TreeSet<>(LIBRARIES.keySet())) {
            modulePath.add(classes(folder).toString());
        }
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", String.join(":", modulePath), "--add-modules", "ALL-MODULE-PATH",
                "-cp", Build.root().resolve("checks/target/test-classes").toString(),
                ModulePathProbe.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ended).as("the probe ended within 120 s; its output:\n%s", out).isTrue();
        assertThat(p.exitValue()).as("exit status; output:\n%s", out).isZero();
        assertThat(out)
                .contains("probe in unnamed module")
                .contains("inmem@org.portals3j.transport.inmem", "udp@org.portals3j.transport.udp")
                .contains("put over inmem: delivered", "put over udp: delivered")
                .contains("internal package refused")
                .doesNotContain("internal package usable");
    }

    private static ModuleDescriptor module(Map<String, ModuleDescriptor> modules, String name) {
        ModuleDescriptor m = modules.get(name);
        if (m == null) {
            throw new AssertionError("no module " + name + " among " + modules.keySet());
        }
        return m;
    }

    private static Map<String, ModuleDescriptor> descriptors() {
        Path[] roots = LIBRARIES.keySet().stream().map(ModulePathTest::classes).toArray(Path[]::new);
        Map<String, ModuleDescriptor> result = new TreeMap<>();
        for (ModuleReference ref : ModuleFinder.of(roots).findAll()) {
            result.put(ref.descriptor().name(), ref.descriptor());
        }
        for (Map.Entry<String, String> e : LIBRARIES.entrySet()) {
            assertThat(result).as("%s declares module %s", e.getKey(), e.getValue()).containsKey(e.getValue());
        }
        return result;
    }

    private static Path classes(String folder) {
        Path classes = Build.mainClasses(folder);
        assertThat(classes.resolve("module-info.class")).as("compiled module descriptor").isRegularFile();
        return classes;
    }
}
