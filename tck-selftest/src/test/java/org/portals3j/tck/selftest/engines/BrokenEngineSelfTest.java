package org.portals3j.tck.selftest.engines;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.portals3j.tck.catalogue.Catalogue;

/**
 * The kit proves it catches engine bugs: each of {@link #MUTATIONS}, a real engine source file with one deliberate
 * bug, compiled and put ahead of the build's classes, fails exactly the assertions that bug breaks and passes every
 * other one of the kit classes that can see it; the same classes on the real engine fail nothing.
 *
 * <p>Each mutation runs only the kit classes that see it best, in a JVM of its own on {@code inmem}; the whole
 * Portals kit on each would take minutes, mostly waiting in vain for events a bug lost. The failing sets are those
 * of the kit's tests in those classes, read off a run and checked to be the same on repeated runs under a load of 15-20
 * on 2 cores: each mutated path is taken by every request of the tests that fail, whatever the scheduling. The two
 * Isotach mutations run one test each (the child's assertion filter): the kit's other delivery-order tests meet a
 * reordered pulse only when their senders' isochrons happen to share a pulse, which depends on thread timing,
 * whereas an isochron of several messages to one host always lies in one pulse.
 */
class BrokenEngineSelfTest {
    private static final String PORTALS = "portals-api";
    private static final String ENGINE = "org/portals3j/portals/internal/engine/";
    private static final String KIT = "org.portals3j.tck.portals.";

    private static final String ISOTACH = "isotach-core";
    private static final String HOST = "org/portals3j/isotach/internal/host/";
    private static final String ISO_KIT = "org.portals3j.tck.isotach.";
    static final List<EngineMutation> MUTATIONS = List.of(
            new EngineMutation("match list walked from the tail", PORTALS, ENGINE + "MatchList.java", """
                    exact = bucket == null ? null : bucket.head;
                    wildcard = list.wild.head;
                    }
                    /** The next candidate; the cursor has moved past it, so the caller may unlink it. */
                    @Nullable MatchEntryState next() {
                    MatchEntryState e = exact;
                    MatchEntryState w = wildcard;
                    if (e != null && (w == null || e.order < w.order)) {
                    exact = e.chainNext;
                    return e;
                    }
                    if (w != null) {
                    wildcard = w.chainNext;
                    return w;
                    }""", """
                    exact = bucket == null ? null : bucket.tail;
                    wildcard = list.wild.tail;
                    }
                    @Nullable MatchEntryState next() {
                    MatchEntryState e = exact;
                    MatchEntryState w = wildcard;
                    if (e != null && (w == null || e.order > w.order)) {
                    exact = e.chainPrev;
                    return e;
                    }
                    if (w != null) {
                    wildcard = w.chainPrev;
                    return w;
                    }""", kit("MatchEntryTest", "ReceiveMatchingTest"),
                    Set.of("P-060", "P-061", "P-062", "P-064", "P-065", "P-072", "P-073", "P-074", "P-076", "P-079",
                            "P-083", "P-217", "P-219")),
            new EngineMutation("truncation ignored: the whole request deposited", PORTALS, ENGINE + "Target.java",
                    "mlength = avail; // Portals 3.2 spec §3.8.1.1", "mlength = rlength;",
                    kit("ReceiveAcceptanceTest", "EventTest"),
                    Set.of("P-194", "P-200", "P-201", "P-231", "P-232", "P-234", "P-235", "P-246", "P-247")),
            new EngineMutation("a request too long truncated without PTL_MD_TRUNCATE", PORTALS, ENGINE + "Target.java",
                    "} else if (md.has(MdOption.TRUNCATE)) {", "} else if (true) {",
                    kit("ReceiveAcceptanceTest", "ReceiveMatchingTest"),
                    Set.of("P-220", "P-230", "P-233", "P-242", "P-243", "P-244", "P-247")),
            new EngineMutation("access control entries not checked", PORTALS, ENGINE + "Target.java",
                    "|| !ni.acl[cookie].allows(rx.initiatorNid(), rx.initiatorPid(), rx.user(), ni.jid, portal)) {",
                    ") {", kit("AccessControlTest"), Set.of("P-154", "P-155", "P-156", "P-157", "P-158", "P-159",
                            "P-161", "P-163", "P-164", "P-165")),
            new EngineMutation("threshold not decremented", PORTALS, ENGINE + "Target.java",
                    "if (md.threshold > 0) { md.threshold--;", "if (md.threshold > 0) {",
                    kit("MemoryDescriptorTest", "ReceiveAcceptanceTest"), Set.of("P-096", "P-113", "P-118", "P-119",
                            "P-120", "P-224", "P-238", "P-239", "P-241", "P-244", "P-245")),
            new EngineMutation("PUT_END reports offset 0", PORTALS, ENGINE + "Target.java",
                    "p.uid, p.portal, p.matchBits, p.rlength, mlength, p.offset, p.hdrData,",
                    "p.uid, p.portal, p.matchBits, p.rlength, mlength, 0L, p.hdrData,",
                    kit("EventTest", "ReceiveAcceptanceTest"), Set.of("P-195", "P-196", "P-198", "P-199", "P-225",
                            "P-227", "P-228", "P-229", "P-232", "P-233", "P-234", "P-236", "P-237", "P-243", "P-246")),
            new EngineMutation("PUT_START reports the requested length as mlength", PORTALS, ENGINE + "Target.java",
                    "p.uid, p.portal, p.matchBits, p.rlength, p.mlength, p.offset, p.hdrData, NiFailType.OK);",
                    "p.uid, p.portal, p.matchBits, p.rlength, p.rlength, p.offset, p.hdrData, NiFailType.OK);",
                    kit("EventTest", "ReceiveAcceptanceTest"), Set.of("P-200", "P-201", "P-231")),
            new EngineMutation("GET_START reports the target's own pid as the initiator's", PORTALS,
                    ENGINE + "Target.java", "NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,",
                    "NetworkInterfaceState.SELF_LINK, op.peerNid, ni.pid, op.uid,", kit("EventTest"), Set.of("P-273")),
            new EngineMutation("a pulse delivered in reverse sort-vector order", ISOTACH, HOST + "OrderingModule.java",
                    "int idx = sortVector[k];", "int idx = sortVector[n - 1 - k];", isoKit("I-011"),
                    Set.of("I-010", "I-011", "I-040")),
            new EngineMutation("a big pulse delivered by sender, each sender's in reverse issue order", ISOTACH,
                    HOST + "OrderingModule.java", "for (int k = 0; k < n; k++) { if (sender[b][k] == s) {",
                    "for (int k = n - 1; k >= 0; k--) { if (sender[b][k] == s) {", isoKit("I-012"),
                    Set.of("I-010", "I-012", "I-018"))
    );

    private static List<String> kit(String... classes) {
        return Stream.of(classes).map(c -> KIT + c).toList();
    }

    /** The kit's delivery-order tests that name {@code id}. */
    private static List<String> isoKit(String id) {
        return List.of(KitOnThisClassPath.ONLY + id, ISO_KIT + "DeliveryOrderTest");
    }

    /** Kit JVMs at once: their time is mostly the kit waiting in vain for what a bug lost, not CPU. */
    private static final int CONCURRENT_RUNS = 3;

    private static final Map<EngineMutation, Future<KitChildRun>> BROKEN_RUNS = new LinkedHashMap<>();
    private static final Map<List<String>, Future<KitChildRun>> CONTROL_RUNS = new LinkedHashMap<>();
    private static @Nullable ExecutorService runs;
    private static @Nullable Path workDir;

    /** Compiles every mutation, then starts the kit on each, and on the real engine, a few JVMs at a time. */
    @BeforeAll
    static void compileEveryMutationAndStartTheKitOnIt() throws IOException {
        Path root = repositoryRoot();
        Path dir = Files.createTempDirectory("broken-engines");
        workDir = dir;
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT_RUNS);
        runs = pool;
        for (List<String> kit : controls()) {
            CONTROL_RUNS.put(kit, pool.submit(() -> KitChildRun.of(null, kit)));
        }
        int n = 0;
        for (EngineMutation mutation : MUTATIONS) {
            Path classes = dir.resolve("mutation-" + n++);
            Callable<KitChildRun> run;
            try {
                Files.createDirectories(classes);
                MutantCompiler.compile(mutation, root, classes);
                Path compiled = classes.resolve(mutation.className().replace('.', '/') + ".class");
                if (!Files.isRegularFile(compiled)) {
                    throw new AssertionError(mutation.name() + ": javac wrote no " + compiled);
                }
                run = () -> KitChildRun.of(classes, mutation.kit());
            } catch (AssertionError | IOException e) {
                run = () -> {
                    throw e; // reported by this mutation's own test
                };
            }
            BROKEN_RUNS.put(mutation, pool.submit(run));
        }
    }

    @AfterAll
    static void stopAndCleanUp() throws IOException {
        ExecutorService pool = runs;
        if (pool != null) {
            pool.shutdownNow();
        }
        Path dir = workDir;
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    static Stream<EngineMutation> mutations() {
        return MUTATIONS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutations")
    void theKitFailsExactlyTheAssertionsTheBugBreaks(EngineMutation mutation) throws Exception {
        KitChildRun run = result(BROKEN_RUNS.get(mutation));
        assertThat(run.testsRun()).as("kit tests run").isPositive();
        assertThat(run.failedAssertions()).as(mutation.name() + "\n" + run.failures())
                .containsExactlyInAnyOrderElementsOf(mutation.mustFail());
    }

    @Test
    void theSameKitTestsFailNothingOnTheRealEngine() throws Exception {
        assertThat(CONTROL_RUNS).hasSize(controls().size());
        for (Map.Entry<List<String>, Future<KitChildRun>> control : CONTROL_RUNS.entrySet()) {
            KitChildRun run = result(control.getValue());
            assertThat(run.testsRun()).as("kit tests run of " + control.getKey()).isPositive();
            assertThat(run.failedAssertions()).as(run.failures()).isEmpty();
        }
    }

    @Test
    void everyMutationNamesAnAssertionOfTheCatalogue() {
        Catalogue catalogue = Catalogue.builtIn();
        for (EngineMutation mutation : MUTATIONS) {
            assertThat(mutation.mustFail()).as(mutation.name()).isNotEmpty()
                    .allMatch(id -> catalogue.find(id).isPresent());
        }
    }

    /** What the mutations run, on the real engine: for each assertion filter, every class run with it. */
    private static List<List<String>> controls() {
        Map<String, Set<String>> classesByFilter = new TreeMap<>();
        for (EngineMutation mutation : MUTATIONS) {
            String filter = mutation.kit().stream().filter(a -> a.startsWith(KitOnThisClassPath.ONLY)).findFirst()
                    .orElse("");
            classesByFilter.computeIfAbsent(filter, f -> new TreeSet<>()).addAll(mutation.kit().stream()
                    .filter(a -> !a.startsWith(KitOnThisClassPath.ONLY)).toList());
        }
        List<List<String>> kits = new ArrayList<>();
        classesByFilter.forEach((filter, classes) -> {
            List<String> kit = new ArrayList<>();
            if (!filter.isEmpty()) {
                kit.add(filter);
            }
            kit.addAll(classes);
            kits.add(List.copyOf(kit));
        });
        return kits;
    }

    private static KitChildRun result(@Nullable Future<KitChildRun> run) throws Exception {
        if (run == null) {
            throw new AssertionError("never started");
        }
        try {
            return run.get(); // each child is bounded by KitChildRun itself
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** The checkout this test runs in: the first directory up from here that holds the engine's module. */
    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve(PORTALS).resolve("src/main/java").resolve(ENGINE))) {
                return p;
            }
        }
        throw new IllegalStateException("no " + PORTALS + " sources above " + Path.of("").toAbsolutePath()
                + ": run the self-test from the repository");
    }
}
