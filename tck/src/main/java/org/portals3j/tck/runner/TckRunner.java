package org.portals3j.tck.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckSeed;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.transport.Availability;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;

/**
 * Runs the kit on the JUnit Platform Launcher, once per transport, in this JVM, and gathers a
 * {@link TckResult}. A transport is chosen by setting {@value TckTransport#PROPERTY} for the run, which is
 * how every kit test finds it: any {@link TransportProvider} on the class path can be checked, a
 * third-party one included.
 *
 * <pre>{@code
 * TckResult result = TckRunner.builder().transports(List.of("inmem", "udp")).build().run();
 * }</pre>
 */
public final class TckRunner {
    /** The packages of the kit's tests: Portals 3.2, Isotach and LAPI. */
    public static final List<String> KIT_PACKAGES = List.of("org.portals3j.tck.portals", "org.portals3j.tck.isotach",
            "org.portals3j.tck.lapi");

    /** Test classes are the kit's public classes named like the build's test classes. */
    private static final String TEST_CLASS_PATTERN = "^org\\.portals3j\\.tck\\..*Tests?$";

    private final List<String> transports;
    private final List<Class<?>> classes;
    private final List<DiscoverySelector> selectors;
    private final Set<String> assertionFilter;
    private final @Nullable Duration patience;
    private final @Nullable Long seed;
    private final Duration testTimeout;
    private final @Nullable Path junitXmlDir;
    private final TckListener listener;

    private TckRunner(Builder b) {
        this.transports = List.copyOf(b.transports);
        this.classes = List.copyOf(b.classes);
        this.selectors = b.classes.isEmpty()
                ? KIT_PACKAGES.stream().map(p -> (DiscoverySelector) selectPackage(p)).toList()
                : b.classes.stream().map(c -> (DiscoverySelector) selectClass(c)).toList();
        this.assertionFilter = Set.copyOf(b.assertionFilter);
        this.patience = b.patience;
        this.seed = b.seed;
        this.testTimeout = b.testTimeout;
        this.junitXmlDir = b.junitXmlDir;
        this.listener = b.listener;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The names of every transport provider on the class path, sorted: the default set to run on. */
    public static List<String> everyTransport() {
        return Transports.all().stream().map(TransportProvider::name).toList();
    }

    /** The ids among {@code ids} that are not in the kit's catalogue, sorted. */
    public static List<String> unknownAssertions(Set<String> ids) {
        Catalogue catalogue = Catalogue.builtIn();
        return ids.stream().filter(id -> catalogue.find(id).isEmpty()).sorted().toList();
    }

    /**
     * The tests this runner would run, without running them. A parameterised test appears here as its
     * template only when it has no invocation yet; its invocations are known once it ran.
     */
    public List<KitTest> discover() {
        Launcher launcher = LauncherFactory.create();
        TestPlan plan = launcher.discover(request());
        return new ArrayList<>(index(plan).values());
    }

    /** Runs the kit on every chosen transport, one after the other. */
    public TckResult run() {
        List<String> names = transports.isEmpty() ? everyTransport() : transports;
        List<KitTest> tests = discover();
        List<TransportRun> runs = new ArrayList<>();
        for (String name : names) {
            TransportRun run = runOn(name);
            listener.transportFinished(run);
            runs.add(run);
        }
        // Invocations of parameterised tests exist only once they ran: they join the discovered tests.
        Map<String, KitTest> all = new LinkedHashMap<>();
        tests.forEach(t -> all.put(t.uniqueId(), t));
        runs.forEach(r -> r.outcomes().forEach(o -> all.putIfAbsent(o.test().uniqueId(), o.test())));
        all.values().removeIf(template -> all.values().stream().anyMatch(t -> t != template
                && t.uniqueId().startsWith(template.uniqueId() + "/")));
        return new TckResult(Catalogue.builtIn(), new ArrayList<>(all.values()), runs);
    }

    private TransportRun runOn(String name) {
        Optional<TransportProvider> provider = Transports.find(name);
        if (provider.isEmpty()) {
            return new TransportRun(name, "no transport provider named '" + name + "' on the class path (found: "
                    + String.join(", ", everyTransport()) + ")", List.of(), Duration.ZERO);
        }
        Availability availability;
        try {
            availability = provider.get().availability();
        } catch (RuntimeException | LinkageError e) {
            return new TransportRun(name, "its availability check failed: " + e, List.of(), Duration.ZERO);
        }
        if (!availability.available()) {
            return new TransportRun(name, availability.reason(), List.of(), Duration.ZERO);
        }

        Map<String, @Nullable String> saved = new HashMap<>();
        saved.put(TckTransport.PROPERTY, System.getProperty(TckTransport.PROPERTY));
        saved.put(TckTransport.PATIENCE_PROPERTY, System.getProperty(TckTransport.PATIENCE_PROPERTY));
        saved.put(TckSeed.PROPERTY, System.getProperty(TckSeed.PROPERTY));
        System.setProperty(TckTransport.PROPERTY, name);
        if (patience != null) {
            System.setProperty(TckTransport.PATIENCE_PROPERTY, Long.toString(patience.toMillis()));
        }
        if (seed != null) {
            System.setProperty(TckSeed.PROPERTY, Long.toString(seed));
        }
        long start = System.nanoTime();
        try {
            Launcher launcher = LauncherFactory.create();
            TestPlan plan = launcher.discover(request());
            Map<String, KitTest> index = index(plan);
            Collector collector = new Collector(name, plan, index, listener);
            int parameterised = (int) index.keySet().stream()
                    .filter(id -> plan.getTestIdentifier(id).isContainer()).count();
            listener.transportStarted(name, index.size(), parameterised);
            List<TestExecutionListener> listeners = new ArrayList<>();
            listeners.add(collector);
            if (junitXmlDir != null) {
                listeners.add(new PartialReportEntries(new LegacyXmlReportGeneratingListener(junitXmlDir.resolve(name),
                        new PrintWriter(System.err, true)), Catalogue.builtIn()));
            }
            launcher.execute(plan, listeners.toArray(TestExecutionListener[]::new));
            return new TransportRun(name, "", collector.outcomes(), Duration.ofNanos(System.nanoTime() - start));
        } finally {
            restore(TckTransport.PROPERTY, saved.get(TckTransport.PROPERTY));
            restore(TckTransport.PATIENCE_PROPERTY, saved.get(TckTransport.PATIENCE_PROPERTY));
            restore(TckSeed.PROPERTY, saved.get(TckSeed.PROPERTY));
        }
    }

    /** Puts back a kit property as it was before the run (only the kit's own properties are touched). */
    @SuppressWarnings("clear.system.property") // our own properties, never a predefined one
    private static void restore(String key, @Nullable String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private LauncherDiscoveryRequest request() {
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .configurationParameter("junit.jupiter.execution.timeout.testable.method.default",
                        testTimeout.toMillis() + " ms")
                // The kit's own settings only: a junit-platform.properties of the user's class path does not apply.
                .enableImplicitConfigurationParameters(false);
        if (classes.isEmpty()) {
            b.filters(ClassNameFilter.includeClassNamePatterns(TEST_CLASS_PATTERN));
        }
        if (!assertionFilter.isEmpty()) {
            b.filters((PostDiscoveryFilter) descriptor -> {
                if (descriptor.getSource().orElse(null) instanceof MethodSource m) {
                    Set<String> ids = assertionIds(m);
                    ids.retainAll(assertionFilter);
                    return FilterResult.includedIf(!ids.isEmpty(), () -> "names one of the chosen assertions",
                            () -> "names none of the chosen assertions");
                }
                return FilterResult.included("a container");
            });
        }
        return b.build();
    }

    /**
     * The kit's tests in {@code plan}, by unique id, in plan order: test methods, and the templates of
     * parameterised tests (whose invocations appear only when they run).
     */
    private static Map<String, KitTest> index(TestPlan plan) {
        Map<String, KitTest> tests = new LinkedHashMap<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier id : plan.getDescendants(root)) {
                if (id.getSource().orElse(null) instanceof MethodSource m) {
                    tests.put(id.getUniqueId(), new KitTest(id.getUniqueId(), m.getClassName(), m.getMethodName(),
                            id.getDisplayName(), assertionIds(m)));
                }
            }
        }
        return tests;
    }

    /** The ids named by {@code @SpecAssertion} on the test method and on its class and enclosing classes. */
    static Set<String> assertionIds(MethodSource source) {
        Set<String> ids = new LinkedHashSet<>();
        try {
            add(ids, source.getJavaMethod());
            for (Class<?> c = source.getJavaClass(); c != null; c = c.getEnclosingClass()) {
                add(ids, c);
            }
        } catch (RuntimeException e) {
            // A class that cannot be loaded fails on its own when it runs; it names no assertion here.
        }
        return ids;
    }

    private static void add(Set<String> ids, AnnotatedElement element) {
        SpecAssertion a = element.getAnnotation(SpecAssertion.class);
        if (a != null) {
            ids.addAll(List.of(a.value()));
        }
    }

    /** Turns execution events into {@link TestOutcome}s, including tests a failed or skipped class never ran. */
    private static final class Collector implements TestExecutionListener {
        private final String transport;
        private final TestPlan plan;
        private final Map<String, KitTest> index;
        private final TckListener listener;
        private final Map<String, Long> started = new HashMap<>();
        private final Set<String> finished = new HashSet<>();
        /** Templates in the index whose invocations joined it: they are no longer counted as tests. */
        private final Set<String> expanded = new HashSet<>();
        private final List<TestOutcome> outcomes = new ArrayList<>();

        Collector(String transport, TestPlan plan, Map<String, KitTest> index, TckListener listener) {
            this.transport = transport;
            this.plan = plan;
            this.index = index;
            this.listener = listener;
        }

        List<TestOutcome> outcomes() {
            return outcomes;
        }

        /** A test made at run time (an invocation of a parameterised test): it joins the index. */
        @Override
        public void dynamicTestRegistered(TestIdentifier id) {
            if (id.isTest() && id.getSource().orElse(null) instanceof MethodSource m) {
                index.put(id.getUniqueId(), new KitTest(id.getUniqueId(), m.getClassName(), m.getMethodName(),
                        id.getDisplayName(), assertionIds(m)));
                id.getParentId().filter(index::containsKey).ifPresent(expanded::add);
                listener.testCountChanged(transport, tests());
            }
        }

        /** The tests to run: the index less the templates that made invocations (those stand for them). */
        private int tests() {
            return index.size() - expanded.size();
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            started.put(id.getUniqueId(), System.nanoTime());
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            // A skipped class or template: its tests are skipped with it (they report nothing themselves).
            record(id.getUniqueId(), TestStatus.SKIPPED, reason, "", Duration.ZERO);
            for (TestIdentifier d : plan.getDescendants(id)) {
                record(d.getUniqueId(), TestStatus.SKIPPED, reason, "", Duration.ZERO);
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            Long t0 = started.get(id.getUniqueId());
            Duration took = t0 == null ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - t0);
            @Nullable Throwable thrown = result.getThrowable().orElse(null);
            String message = thrown == null ? "" : oneLine(thrown);
            String detail = thrown == null ? "" : trace(thrown);
            TestStatus status = switch (result.getStatus()) {
                case SUCCESSFUL -> TestStatus.PASSED;
                case ABORTED -> TestStatus.SKIPPED;
                case FAILED -> TestStatus.FAILED;
            };
            if (id.isTest()) {
                record(id.getUniqueId(), status, message, detail, took);
            } else if (status != TestStatus.PASSED) {
                // A class whose set-up or tear-down failed, or a parameterised test whose arguments could not
                // be made: its tests that did not report count with it, or the template itself when none ran.
                boolean any = false;
                for (TestIdentifier d : plan.getDescendants(id)) {
                    any |= record(d.getUniqueId(), status, "in " + id.getDisplayName() + ": " + message, detail,
                            Duration.ZERO);
                }
                if (!any && plan.getChildren(id).isEmpty()) {
                    record(id.getUniqueId(), status, message, detail, took);
                }
            } else if (plan.getChildren(id).isEmpty()) {
                index.remove(id.getUniqueId()); // a template that ran its invocations: they stand for it
                expanded.remove(id.getUniqueId());
            }
        }

        /** Records the outcome of an indexed test once; answers whether it was recorded now. */
        private boolean record(String uniqueId, TestStatus status, String message, String detail, Duration took) {
            KitTest test = index.get(uniqueId);
            if (test == null || !finished.add(uniqueId)) {
                return false;
            }
            TestOutcome outcome = new TestOutcome(test, status, message, detail, took);
            outcomes.add(outcome);
            listener.testFinished(transport, outcome);
            return true;
        }

        private static String oneLine(Throwable t) {
            String m = t.getMessage();
            String text = t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
            text = text.replaceAll("\\s+", " ").strip();
            return text.length() > 500 ? text.substring(0, 497) + "..." : text;
        }

        /** The stack trace down to the last frame of the kit, which is where a reader starts. */
        private static String trace(Throwable t) {
            StringWriter w = new StringWriter();
            t.printStackTrace(new PrintWriter(w));
            List<String> lines = List.of(w.toString().split("\n"));
            int last = 0;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("org.portals3j.")) {
                    last = i;
                }
            }
            return String.join("\n", lines.subList(0, Math.min(lines.size(), Math.max(last + 1, 12))));
        }
    }

    /** Chooses the transports, the tests and the reporting of a run. */
    public static final class Builder {
        private List<String> transports = List.of();
        private List<Class<?>> classes = List.of();
        private Set<String> assertionFilter = Set.of();
        private @Nullable Duration patience;
        private @Nullable Long seed;
        private Duration testTimeout = Duration.ofMinutes(3);
        private @Nullable Path junitXmlDir;
        private TckListener listener = new TckListener() { };

        private Builder() {
        }

        /** The transports to run on, by name; none (the default) means every provider on the class path. */
        public Builder transports(List<String> names) {
            this.transports = List.copyOf(names);
            return this;
        }

        /** Runs only these test classes (default: all of the kit); they are taken whatever their names. */
        public Builder classes(List<Class<?>> testClasses) {
            this.classes = List.copyOf(testClasses);
            return this;
        }

        /**
         * Runs only the tests that name at least one of these assertion ids (default: no filter).
         *
         * @throws IllegalArgumentException naming the ids that are not in the kit's catalogue (a filter that can
         *         match nothing is a mistake, never an empty pass)
         */
        public Builder assertions(Set<String> ids) {
            List<String> unknown = unknownAssertions(ids);
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", unknown) + (unknown.size() == 1 ? " is" : " are")
                        + " not in the kit's catalogue");
            }
            this.assertionFilter = Set.copyOf(ids);
            return this;
        }

        /** How long tests wait for what must come (default: {@link TckTransport#patience()}). */
        public Builder patience(Duration patience) {
            this.patience = patience;
            return this;
        }

        /**
         * The seed every randomised test of the run uses, to replay a run ({@link TckSeed}; default: a new seed per
         * test, or {@value TckSeed#PROPERTY} if it is set).
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** After how long a single test is failed as hung (default 3 minutes). */
        public Builder testTimeout(Duration timeout) {
            this.testTimeout = timeout;
            return this;
        }

        /**
         * Writes JUnit XML reports to {@code dir/<transport>/}. A test that names an assertion the kit checks only in
         * part carries a report entry {@code partial} per such assertion, in its {@code system-out}.
         */
        public Builder junitXml(Path dir) {
            this.junitXmlDir = dir;
            return this;
        }

        /** Hears the run as it goes. */
        public Builder listener(TckListener listener) {
            this.listener = listener;
            return this;
        }

        public TckRunner build() {
            return new TckRunner(this);
        }
    }
}
