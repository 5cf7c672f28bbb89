package org.portals3j.checks;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

/**
 * The package dependencies of a set of compiled class roots, as jdeps (from the JDK) reports them, and the cycles
 * among them. Only dependencies between packages of the given roots count; the JDK and libraries are left out.
 *
 * <p>One kind of edge is not counted: from a package {@code p} to a package under {@code p.internal}. A public
 * package's facade creates its implementation there, and the implementation uses the public package's value types
 * (the Portals engine and {@code Portals}, the Isotach engine and {@code IsotachNet}, the udp endpoint and its
 * provider): that pair is one component, and keeping the public API in one package is worth it. Every other edge
 * counts, so a cycle between two internal packages, between two public packages, or across modules is reported.
 */
final class PackageGraph {
    /** Class-level edges by source package, then target package: the classes that make each package edge. */
    private final Map<String, Map<String, Set<String>>> edges;

    private PackageGraph(Map<String, Map<String, Set<String>>> edges) {
        this.edges = edges;
    }

    /** Runs jdeps over {@code classRoots} (directories or jars of compiled classes). */
    static PackageGraph of(List<Path> classRoots) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("this JDK has no jdeps tool (module jdk.jdeps)"));
        List<String> args = new ArrayList<>(List.of("-verbose:class", "--multi-release", "base"));
        for (Path root : classRoots) {
            args.add(root.toString());
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0]));
        if (status != 0) {
            throw new IllegalStateException("jdeps " + String.join(" ", args) + " failed (" + status + "): " + err);
        }
        return parse(out.toString());
    }

    /**
     * Reads jdeps {@code -verbose:class} output: one {@code SOURCE_CLASS -> TARGET_CLASS ARCHIVE} line per
     * dependency, under a header line per archive.
     */
    static PackageGraph parse(String jdepsOutput) {
        Map<String, Map<String, Set<String>>> all = new TreeMap<>();
        Set<String> sources = new TreeSet<>();
        for (String line : jdepsOutput.split("\n")) {
            if (!Character.isWhitespace(line.isEmpty() ? 'x' : line.charAt(0))) {
                continue; // an archive's header line ("classes -> ...")
            }
            String[] f = line.trim().split("\\s+");
            if (f.length < 3 || !f[1].equals("->")) {
                continue;
            }
            String from = packageOf(f[0]);
            String to = packageOf(f[2]);
            sources.add(from);
            if (!from.equals(to)) {
                all.computeIfAbsent(from, k -> new TreeMap<>()).computeIfAbsent(to, k -> new TreeSet<>())
                        .add(f[0] + " -> " + f[2]);
            }
        }
        Map<String, Map<String, Set<String>>> kept = new TreeMap<>();
        all.forEach((from, targets) -> targets.forEach((to, classes) -> {
            if (sources.contains(to) && !isOwnImplementation(from, to)) {
                kept.computeIfAbsent(from, k -> new TreeMap<>()).put(to, classes);
            }
        }));
        return new PackageGraph(kept);
    }

    /** True for an edge from a package to its own implementation under {@code from.internal}. */
    static boolean isOwnImplementation(String from, String to) {
        return to.startsWith(from + ".internal.") || to.equals(from + ".internal");
    }

    /** The package dependencies: package to the packages it uses. */
    Map<String, Set<String>> packageEdges() {
        Map<String, Set<String>> result = new TreeMap<>();
        edges.forEach((from, targets) -> result.put(from, new TreeSet<>(targets.keySet())));
        return result;
    }

    /** Every cycle: the strongly connected components of two or more packages, each sorted by name. */
    List<List<String>> cycles() {
        List<List<String>> result = new ArrayList<>();
        for (List<String> component : new Components().find()) {
            if (component.size() > 1) {
                List<String> sorted = new ArrayList<>(component);
                sorted.sort(Comparator.naturalOrder());
                result.add(sorted);
            }
        }
        result.sort(Comparator.comparing(c -> c.get(0)));
        return result;
    }

    /** The cycles with the class-level dependencies inside each, for a failure message; empty if there are none. */
    String describeCycles() {
        StringBuilder b = new StringBuilder();
        for (List<String> cycle : cycles()) {
            b.append("cycle among ").append(cycle).append(":\n");
            for (String from : cycle) {
                Map<String, Set<String>> targets = edges.getOrDefault(from, Map.of());
                for (String to : cycle) {
                    for (String classEdge : targets.getOrDefault(to, Set.of())) {
                        b.append("    ").append(classEdge).append('\n');
                    }
                }
            }
        }
        return b.toString();
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** Tarjan's strongly connected components, iterative (package graphs are small, but recursion depth is not). */
    private final class Components {
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<List<String>> found = new ArrayList<>();
        private int next;

        List<List<String>> find() {
            Set<String> nodes = new TreeSet<>(edges.keySet());
            edges.values().forEach(t -> nodes.addAll(t.keySet()));
            for (String v : nodes) {
                if (!index.containsKey(v)) {
                    visit(v);
                }
            }
            return found;
        }

        private void visit(String root) {
            Deque<Map.Entry<String, ArrayDeque<String>>> work = new ArrayDeque<>();
            enter(root, work);
            while (!work.isEmpty()) {
                Map.Entry<String, ArrayDeque<String>> top = work.getFirst();
                String v = top.getKey();
                String w = top.getValue().poll();
                if (w != null) {
                    if (!index.containsKey(w)) {
                        enter(w, work);
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(number(low, v), number(index, w)));
                    }
                    continue;
                }
                work.pop();
                Map.Entry<String, ArrayDeque<String>> parent = work.peek();
                if (parent != null) {
                    low.put(parent.getKey(), Math.min(number(low, parent.getKey()), number(low, v)));
                }
                if (number(low, v) == number(index, v)) {
                    List<String> component = new ArrayList<>();
                    String x;
                    do {
                        x = stack.pop();
                        onStack.remove(x);
                        component.add(x);
                    } while (!x.equals(v));
                    found.add(component);
                }
            }
        }

        private static int number(Map<String, Integer> numbers, String v) {
            Integer n = numbers.get(v);
            if (n == null) {
                throw new IllegalStateException(v + " was not visited");
            }
            return n;
        }

        private void enter(String v, Deque<Map.Entry<String, ArrayDeque<String>>> work) {
            index.put(v, next);
            low.put(v, next);
            next++;
            stack.push(v);
            onStack.add(v);
            work.push(Map.entry(v, new ArrayDeque<>(edges.getOrDefault(v, Map.of()).keySet())));
        }
    }
}
