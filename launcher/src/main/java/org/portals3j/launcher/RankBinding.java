package org.portals3j.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where {@code portals run --bind-to core|none} puts rank processes: local rank r on the r-th CPU the launcher may
 * use, through {@code taskset --cpu-list CPU} before the rank's command; or nowhere (the launcher's whole mask).
 */
final class RankBinding {
    /** The util-linux program the ranks are started through. */
    static final String TASKSET = "taskset";

    private final @Nullable Path taskset;
    private final List<Integer> cpus;

    private RankBinding(@Nullable Path taskset, List<Integer> cpus) {
        this.taskset = taskset;
        this.cpus = List.copyOf(cpus);
    }

    /** No binding: every rank gets the launcher's whole mask. */
    static RankBinding none() {
        return new RankBinding(null, List.of());
    }

    /**
     * The binding of {@code ranks} rank processes.
     *
     * @param bindTo  {@code core}, {@code none}, or null for the default: core when the ranks are at most the CPUs
     *                in {@code allowed} and {@code taskset} is found, else none
     * @param allowed the CPUs the launcher may use (empty when unknown)
     * @param taskset the taskset program, or null when it is not on PATH
     */
    static RankBinding of(@Nullable String bindTo, int ranks, List<Integer> allowed, @Nullable Path taskset)
            throws LauncherException {
        if (bindTo == null) {
            return taskset != null && !allowed.isEmpty() && ranks <= allowed.size()
                    ? new RankBinding(taskset, allowed.subList(0, ranks)) : none();
        }
        if (!core(bindTo)) {
            return none();
        }
        if (taskset == null) {
            throw new LauncherException("--bind-to core starts each rank through taskset (util-linux), which is"
                    + " not on PATH: install util-linux, or run with --bind-to none");
        }
        if (allowed.isEmpty()) {
            throw new LauncherException("--bind-to core: the CPUs this process may use are unknown here"
                    + " (no /proc/self/status); run with --bind-to none");
        }
        if (ranks > allowed.size()) {
            throw new LauncherException("--bind-to core: " + ranks + " ranks but this process may use only "
                    + allowed.size() + " CPU" + (allowed.size() == 1 ? "" : "s") + " (" + listOf(allowed)
                    + "); run fewer ranks, or with --bind-to none");
        }
        return new RankBinding(taskset, allowed.subList(0, ranks));
    }

    /** Whether {@code bindTo} is {@code core} (true) or {@code none} (false). */
    static boolean core(String bindTo) throws LauncherException {
        return switch (bindTo.trim().toLowerCase(Locale.ROOT)) {
            case "core" -> true;
            case "none" -> false;
            default -> throw new LauncherException("--bind-to must be core or none, not '" + bindTo
                    + "' (see: portals run --help)");
        };
    }

    /** Whether the ranks are bound. */
    boolean bound() {
        return taskset != null;
    }

    /** {@code command} as rank {@code rank} is started: behind {@code taskset --cpu-list CPU} when bound. */
    List<String> command(int rank, List<String> command) {
        if (taskset == null) {
            return command;
        }
        List<String> bound = new ArrayList<>(command.size() + 3);
        bound.add(taskset.toString());
        bound.add("--cpu-list");
        bound.add(Integer.toString(cpus.get(rank)));
        bound.addAll(command);
        return bound;
    }

    /** The CPUs this process may use, from {@code Cpus_allowed_list} of {@code /proc/self/status}; empty if unknown. */
    static List<Integer> allowedCpus() {
        return allowedCpus(Path.of("/proc/self/status"));
    }

    static List<Integer> allowedCpus(Path status) {
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: unknown
        }
        return List.of();
    }

    /** A CPU list as the kernel writes it ({@code 0-3,8,10-11}), in order. */
    static List<Integer> parseList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            int first = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
            int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1).trim());
            for (int c = first; c <= last; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }

    private static String listOf(List<Integer> cpus) {
        StringBuilder b = new StringBuilder();
        for (int c : cpus) {
            b.append(b.isEmpty() ? "" : ",").append(c);
        }
        return b.toString();
    }
}
