package org.portals3j.isotach;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads an Isotach configuration file: the report's {@code network.cfg} (Isotach report App. E, pp.
 * 113-115) adapted to an emulated network. The host list keeps the report's form; routes are gone (the transport finds
 * the hosts), logical distances take their place, and shared-memory regions and tunables can be given too.
 *
 * <pre>
 * # a four-host cluster                  (comment lines start with '#'; blank lines are ignored)
 * hosts=4
 * # name id                              (short host names; ids 0..hosts-1, each exactly once)
 * bugs 0
 * daffy 1
 * porky 2
 * fudd 3
 * # logical distances, default 1: "distance A B D" sets A-&gt;B and B-&gt;A unless "distance B A" is given too
 * distance 0 3 2
 * distance 3 0 4
 * # shared memory: shmem &lt;base&gt; &lt;words&gt; &lt;copyset: all | comma-separated ids&gt;
 * shmem 0 1024 all
 * shmem 4096 256 0,2
 * # tunables: set &lt;name&gt;=&lt;value&gt;
 * set tokenWindow=8
 * set tm=own-process
 * </pre>
 *
 * <p><b>Rules.</b>
 * <ul>
 *   <li>{@code hosts=<n>} (1..{@value #MAX_HOSTS}) is the first setting; everything else may follow in any order.
 *       A {@code #} starts a comment, also after a setting. The keywords {@code hosts}, {@code distance},
 *       {@code shmem}, {@code set} and {@code node} cannot be host names.</li>
 *   <li>A host line is {@code <name> <id>}: a short host name (letters, digits, {@code -} and {@code _}, starting
 *       with a letter; the report's names are short forms, Isotach report App. E, pp. 113-115) and its node id. Every
 *       id 0..n-1 appears exactly once; names are unique (ignoring case, as host names are). The report's template
 *       separates them with a comma (Isotach report App. E, pp. 113-115), its sample and parser with spaces
 *       (Isotach report App. E, pp. 113-115, A23): spaces it is.</li>
 *   <li>{@code distance <A> <B> <D>}: host ids A != B, D in 1..64. Without a line for B A, it also sets B-&gt;A.
 *       Pairs the file does not mention keep the base configuration's distance (1 by default).</li>
 *   <li>{@code shmem <base> <words> <copyset>}: base &gt;= 0 and words &gt;= 1 (decimal or {@code 0x} hex), copyset
 *       {@code all} or ids separated by commas. Regions must not overlap. Any {@code shmem} line replaces the base
 *       configuration's regions.</li>
 *   <li>{@code set <name>=<value>}, each name at most once: {@code tokenWindow}, {@code idleTickMicros},
 *       {@code stampBatchNanos},
 *       {@code maxPayload}, {@code mbmVersion}, {@code sendBufSize}, {@code isoSendBufSize}, {@code hitBufSize},
 *       {@code selfRefBufSize}, {@code nonisoSlotsPerPeer}, {@code isoCreditsPerPeer}, {@code creditThreshold},
 *       {@code isoCreditThreshold} (fractions), {@code maxSendAttempts}, {@code bucketSize}, {@code readCap},
 *       {@code tm} = {@code in-rank} | {@code own-process}. Ranges are {@link IsotachConfig}'s.</li>
 *   <li>The report's route sections ({@code node <id>:} and {@code <dest> <route-hex>} lines) are refused with a
 *       message saying what to write instead.</li>
 * </ul>
 *
 * <p>Every mistake is an {@link IllegalArgumentException} whose message starts with {@code file:line:}, says
 * what is wrong and what to write instead (I-135: {@code open_net} fails cleanly on a malformed file).
 */
public final class IsotachConfigFile {
    /** The most hosts a file may list (a full distance matrix then takes 64 MiB; the report's cluster had 5). */
    public static final int MAX_HOSTS = 4096;

    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+|0[xX][0-9a-fA-F]+");
    private static final Pattern FRACTION = Pattern.compile("[0-9]*\\.?[0-9]+([eE][+-]?[0-9]+)?");

    private IsotachConfigFile() {
    }

    /**
     * Parse {@code file} (UTF-8) over {@link IsotachConfig#defaults()}.
     *
     * @throws IllegalArgumentException if the file does not exist or says something wrong
     * @throws UncheckedIOException if it cannot be read
     */
    public static IsotachConfig parse(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, file.toString());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such configuration file; write one (see IsotachConfigFile"
                    + " for the format) or name the right path", e);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read the configuration file: " + e.getMessage(), e);
        }
    }

    /** Parse a configuration over {@link IsotachConfig#defaults()}; {@code sourceName} names it in messages. */
    public static IsotachConfig parse(Reader r, String sourceName) {
        return parse(r, sourceName, IsotachConfig.defaults());
    }

    /**
     * Parse a configuration; {@code base} supplies every tunable, distance and shared region the file leaves
     * out.
     *
     * @throws IllegalArgumentException on any mistake in the text (message {@code sourceName:line: ...})
     * @throws UncheckedIOException if {@code r} fails
     */
    public static IsotachConfig parse(Reader r, String sourceName, IsotachConfig base) {
        Parser p = new Parser(sourceName, base);
        BufferedReader in = r instanceof BufferedReader b ? b : new BufferedReader(r);
        try {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                p.line(number, line);
            }
            return p.finish(number);
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot read the configuration: " + e.getMessage(), e);
        }
    }

    /** One parse: the state of the lines read so far. */
    private static final class Parser {
        private final String source;
        private final IsotachConfig base;
        private final IsotachConfig.Builder builder;
        private final Map<String, Tunable> tunables = tunables();
        private final Map<String, Integer> tunableLines = new HashMap<>();
        private int hosts;
        private int hostsLine;
        private @Nullable String @Nullable [] names;
        private int @Nullable [] nameLines;
        private final Map<String, Integer> nameIds = new HashMap<>();
        /** Explicit distances: key from * hosts + to, value {distance, line}. */
        private final Map<Long, int[]> distances = new LinkedHashMap<>();
        private final List<SharedRegion> regions = new ArrayList<>();
        private final List<Integer> regionLines = new ArrayList<>();

        Parser(String source, IsotachConfig base) {
            this.source = source;
            this.base = base;
            this.builder = base.toBuilder();
        }

        private IllegalArgumentException error(int line, String problem, String fix) {
            return new IllegalArgumentException(source + ":" + line + ": " + problem + "; " + fix);
        }

        void line(int number, String raw) {
            int hash = raw.indexOf('#');
            String text = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (text.isEmpty()) {
                return;
            }
            String[] tokens = text.split("\\s+");
            String keyword = tokens[0];
            if (keyword.equals("hosts") || keyword.startsWith("hosts=")) {
                hosts(number, text);
                return;
            }
            if (hostsLine == 0) {
                throw error(number, "'" + text + "' comes before hosts=<n>",
                        "start the file with hosts=<n>, the number of hosts");
            }
            switch (keyword) {
                case "distance" -> distance(number, tokens);
                case "shmem" -> shmem(number, tokens);
                case "set" -> set(number, text.substring(3).strip());
                case "node" -> throw error(number, "'node <id>:' route sections of the report's network.cfg are not"
                        + " used: the transport finds every host itself", "delete the section; give logical distances"
                        + " with 'distance <A> <B> <D>' lines if they are not all 1");
                default -> host(number, tokens);
            }
        }

        private void hosts(int number, String text) {
            int eq = text.indexOf('=');
            if (eq < 0 || !text.substring(5, eq).isBlank()) {
                throw error(number, "'" + text + "' is not a hosts line", "write hosts=<n>, e.g. hosts=4");
            }
            if (hostsLine != 0) {
                throw error(number, "hosts= given twice (first on line " + hostsLine + ")", "keep one hosts=<n> line");
            }
            hosts = (int) number(number, text.substring(eq + 1).strip(), "the host count", 1, MAX_HOSTS);
            hostsLine = number;
            names = new String[hosts];
            nameLines = new int[hosts];
        }

        private void host(int number, String[] tokens) {
            String name = tokens[0];
            if (tokens.length == 1 && name.contains(",")) {
                throw error(number, "'" + name + "' separates name and id with a comma",
                        "write '" + name.replace(',', ' ') + "' (a space, as in the report's sample file,"
                        + " Isotach report App. E, pp. 113-115)");
            }
            if (tokens.length != 2 || !HOST_NAME.matcher(name).matches()) {
                if (INTEGER.matcher(name).matches() && tokens.length == 2) {
                    throw error(number, "'" + String.join(" ", tokens) + "' looks like a route line of the report's"
                            + " network.cfg; routes are not used", "delete it; give logical distances with"
                            + " 'distance <A> <B> <D>' lines");
                }
                if (tokens.length == 2 && name.contains(".")) {
                    throw error(number, "host name '" + name + "' is not a short name",
                            "write the short form, '" + name.substring(0, name.indexOf('.')) + " " + tokens[1]
                                    + "' (Isotach report App. E, pp. 113-115)");
                }
                throw error(number, "unknown keyword '" + name + "'", "write hosts=<n>, '<name> <id>', 'distance <A>"
                        + " <B> <D>', 'shmem <base> <words> <copyset>' or 'set <name>=<value>'; host names are"
                        + " letters, digits, '-' and '_', starting with a letter");
            }
            long id = number(number, tokens[1], "the id of host " + name, Long.MIN_VALUE, Long.MAX_VALUE);
            @Nullable String[] n = names;
            int[] lines = nameLines;
            if (n == null || lines == null) {
                throw new IllegalStateException("hosts= was checked before");
            }
            if (id < 0 || id >= hosts) {
                throw error(number, "id " + id + " of host " + name + " is out of range: hosts=" + hosts + " (line "
                        + hostsLine + ") allows ids 0.." + (hosts - 1), "number the hosts 0.." + (hosts - 1)
                        + ", or raise hosts= if there are more");
            }
            int slot = (int) id;
            String other = n[slot];
            if (other != null) {
                throw error(number, "duplicate id " + id + " (already host " + other + " on line " + lines[slot] + ")",
                        "give every host its own id in 0.." + (hosts - 1));
            }
            Integer same = nameIds.get(name.toLowerCase(Locale.ROOT));
            if (same != null) {
                throw error(number, "host " + name + " is listed twice (as " + n[same] + ", id " + same + " on line "
                        + lines[same] + "; host names ignore case)", "list each host once");
            }
            n[slot] = name;
            lines[slot] = number;
            nameIds.put(name.toLowerCase(Locale.ROOT), slot);
        }

        private void distance(int number, String[] tokens) {
            if (tokens.length != 4) {
                throw error(number, "a distance line needs three numbers", "write 'distance <A> <B> <D>': from host"
                        + " id A to host id B, D pulses (1..64)");
            }
            int from = (int) number(number, tokens[1], "host A", 0, hosts - 1);
            int to = (int) number(number, tokens[2], "host B", 0, hosts - 1);
            if (from == to) {
                throw error(number, "the distance of host " + from + " to itself is always 0",
                        "name two different hosts");
            }
            long d = number(number, tokens[3], null, Long.MIN_VALUE, Long.MAX_VALUE);
            if (d < 1 || d > 64) {
                throw error(number, "distance " + d + " is out of range 1..64", "write a logical distance from 1"
                        + " to 64 pulses");
            }
            int[] earlier = distances.put((long) from * hosts + to, new int[] {(int) d, number});
            if (earlier != null) {
                throw error(number, "distance " + from + " " + to + " given twice (first on line " + earlier[1]
                        + ")", "keep one line per direction");
            }
        }

        private void shmem(int number, String[] tokens) {
            if (tokens.length != 4) {
                throw error(number, "a shmem line needs a base, a size and a copyset",
                        "write 'shmem <base> <words> <copyset>', e.g. 'shmem 0 1024 all' or 'shmem 4096 256 0,2'");
            }
            long regionBase = number(number, tokens[1], "the region base", 0, Long.MAX_VALUE);
            int words = (int) number(number, tokens[2], "the region size in words", 1, Integer.MAX_VALUE);
            if (regionBase > Long.MAX_VALUE - words) {
                throw error(number, "region " + regionBase + " + " + words + " words passes the end of the"
                        + " address space", "choose a smaller base");
            }
            int[] copyset = copyset(number, tokens[3]);
            for (int i = 0; i < regions.size(); i++) {
                SharedRegion r = regions.get(i);
                if (regionBase < r.base() + r.words() && r.base() < regionBase + words) {
                    throw error(number, "region [" + regionBase + ", " + (regionBase + words) + ") overlaps region ["
                            + r.base() + ", " + (r.base() + r.words()) + ") of line " + regionLines.get(i),
                            "give the regions disjoint address ranges");
                }
            }
            regions.add(new SharedRegion(regionBase, words, copyset));
            regionLines.add(number);
        }

        private int[] copyset(int number, String text) {
            if (text.equals("all")) {
                int[] all = new int[hosts];
                for (int i = 0; i < hosts; i++) {
                    all[i] = i;
                }
                return all;
            }
            String[] parts = text.split(",", -1);
            int[] ids = new int[parts.length];
            boolean[] seen = new boolean[hosts];
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].isEmpty()) {
                    throw error(number, "copyset '" + text + "' has an empty entry",
                            "write 'all' or host ids separated by single commas, e.g. 0,2");
                }
                long id = number(number, parts[i], null, Long.MIN_VALUE, Long.MAX_VALUE);
                if (id < 0 || id >= hosts) {
                    throw error(number, "copyset id " + id + " is out of range: hosts=" + hosts + " allows ids 0.."
                            + (hosts - 1), "list ids of configured hosts, or 'all'");
                }
                if (seen[(int) id]) {
                    throw error(number, "copyset lists host " + id + " twice", "list each host once");
                }
                seen[(int) id] = true;
                ids[i] = (int) id;
            }
            return ids;
        }

        private void set(int number, String assignment) {
            int eq = assignment.indexOf('=');
            if (eq <= 0) {
                throw error(number, "'set " + assignment + "' has no name=value", "write 'set <name>=<value>', e.g."
                        + " 'set tokenWindow=8'");
            }
            String name = assignment.substring(0, eq).strip();
            String value = assignment.substring(eq + 1).strip();
            Tunable t = tunables.get(name);
            if (t == null) {
                String hint = "";
                for (String known : tunables.keySet()) {
                    if (known.equalsIgnoreCase(name)) {
                        hint = " (did you mean " + known + "?)";
                    }
                }
                throw error(number, "unknown tunable '" + name + "'" + hint,
                        "use one of " + String.join(", ", tunables.keySet()));
            }
            if (value.isEmpty() || value.contains(" ") || value.contains("\t")) {
                throw error(number, "'set " + assignment + "' needs one value", "write 'set " + name + "="
                        + t.example + "'");
            }
            Integer earlier = tunableLines.put(name, number);
            if (earlier != null) {
                throw error(number, name + " is set twice (first on line " + earlier + ")", "keep one 'set " + name
                        + "=...' line");
            }
            t.apply.accept(new Setting(this, number, name, value), builder);
            try {
                builder.build();
            } catch (IllegalArgumentException e) {
                throw error(number, "set " + name + "=" + value + ": " + String.valueOf(e.getMessage()),
                        "write a value in range, e.g. 'set " + name + "=" + t.example + "'");
            }
        }

        IsotachConfig finish(int lines) {
            if (hostsLine == 0) {
                throw error(Math.max(1, lines), "no hosts=<n> line", "start the file with hosts=<n>, then one"
                        + " '<name> <id>' line per host");
            }
            @Nullable String[] n = names;
            if (n == null) {
                throw new IllegalStateException("names are allocated with hosts=");
            }
            StringBuilder missing = new StringBuilder();
            int listed = 0;
            for (int id = 0; id < hosts; id++) {
                if (n[id] == null) {
                    if (missing.length() < 60) {
                        missing.append(missing.length() == 0 ? "" : ", ").append(id);
                    } else if (!missing.toString().endsWith("...")) {
                        missing.append(", ...");
                    }
                } else {
                    listed++;
                }
            }
            if (listed != hosts) {
                throw error(hostsLine, "hosts=" + hosts + " but " + listed + " host" + (listed == 1 ? " is" : "s are")
                        + " listed (missing ids: " + missing + ")", "add a '<name> <id>' line for each missing id, or"
                        + " set hosts=" + listed + " and number the hosts 0.." + (listed - 1) + " if that is all");
            }
            List<String> hostNames = new ArrayList<>(hosts);
            for (String name : n) {
                if (name == null) {
                    throw new IllegalStateException("every id was checked to be listed");
                }
                hostNames.add(name);
            }
            builder.hostNames(hostNames);
            if (!distances.isEmpty()) {
                int[][] matrix = new int[hosts][hosts];
                for (int i = 0; i < hosts; i++) {
                    for (int j = 0; j < hosts; j++) {
                        matrix[i][j] = i == j ? 0 : explicitDistance(i, j);
                    }
                }
                builder.distances(matrix);
            } else if (base.distanceMatrixSize() != 0 && base.distanceMatrixSize() != hosts) {
                throw error(hostsLine, "the base configuration has distances for " + base.distanceMatrixSize()
                        + " hosts but this file lists " + hosts, "give the distances here with 'distance <A> <B> <D>'"
                        + " lines");
            }
            if (!regions.isEmpty()) {
                builder.sharedRegions(regions);
            } else {
                for (SharedRegion r : base.sharedRegions()) {
                    for (int id : r.copyset()) {
                        if (id >= hosts) {
                            throw error(hostsLine, "the base configuration's " + r + " has a copy on host " + id
                                    + " but this file lists " + hosts + " hosts", "give the regions here with"
                                    + " 'shmem <base> <words> <copyset>' lines");
                        }
                    }
                }
            }
            try {
                return builder.build();
            } catch (IllegalArgumentException e) {
                throw error(hostsLine, String.valueOf(e.getMessage()), "correct the settings it names");
            }
        }

        private int explicitDistance(int from, int to) {
            int[] d = distances.get((long) from * hosts + to);
            if (d == null) {
                d = distances.get((long) to * hosts + from);
            }
            return d != null ? d[0] : base.distance(from, to);
        }

        /**
         * An integer token in {@code [lo, hi]}: decimal or 0x hex. {@code what} names it in a range error; with
         * null the caller checks the range itself (a more specific message).
         */
        long number(int line, String token, @Nullable String what, long lo, long hi) {
            if (!INTEGER.matcher(token).matches()) {
                throw error(line, "bad number '" + token + "'" + (what == null ? "" : " for " + what),
                        "write a whole number (decimal, or hex with 0x)");
            }
            long v;
            try {
                v = token.startsWith("0x") || token.startsWith("0X") ? Long.parseLong(token.substring(2), 16)
                        : Long.parseLong(token);
            } catch (NumberFormatException e) {
                throw error(line, "number '" + token + "' is too large", "write a smaller number");
            }
            if (v < lo || v > hi) {
                throw error(line, (what == null ? "value" : what) + " " + v + " is out of range " + lo + ".." + hi,
                        "write a number from " + lo + " to " + hi);
            }
            return v;
        }
    }

    /** One {@code set} line being applied. */
    private record Setting(Parser parser, int line, String name, String value) {
        int asInt() {
            return (int) parser.number(line, value, name, Integer.MIN_VALUE, Integer.MAX_VALUE);
        }

        long asLong() {
            return parser.number(line, value, name, Long.MIN_VALUE, Long.MAX_VALUE);
        }

        double asFraction() {
            if (!FRACTION.matcher(value).matches()) {
                throw parser.error(line, "bad number '" + value + "' for " + name, "write a fraction such as 0.5");
            }
            return Double.parseDouble(value);
        }

        TmPlacement asPlacement() {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "in-rank" -> TmPlacement.IN_RANK;
                case "own-process" -> TmPlacement.OWN_PROCESS;
                default -> throw parser.error(line, "unknown token manager placement '" + value + "'",
                        "write 'set tm=in-rank' or 'set tm=own-process'");
            };
        }
    }

    /** How a tunable is applied, and an example value for messages. */
    private record Tunable(BiConsumer<Setting, IsotachConfig.Builder> apply, String example) {
    }

    private static Map<String, Tunable> tunables() {
        Map<String, Tunable> m = new LinkedHashMap<>();
        m.put("tokenWindow", new Tunable((s, b) -> b.tokenWindow(s.asInt()), "4"));
        m.put("idleTickMicros", new Tunable((s, b) -> b.idleTickMicros(s.asLong()), "1000"));
        m.put("stampBatchNanos", new Tunable((s, b) -> b.stampBatchNanos(s.asLong()), "16000"));
        m.put("maxPayload", new Tunable((s, b) -> b.maxPayload(s.asInt()), "1024"));
        m.put("mbmVersion", new Tunable((s, b) -> b.mbmVersion(s.asInt()), "2"));
        m.put("sendBufSize", new Tunable((s, b) -> b.sendBufSize(s.asInt()), "1024"));
        m.put("isoSendBufSize", new Tunable((s, b) -> b.isoSendBufSize(s.asInt()), "1024"));
        m.put("hitBufSize", new Tunable((s, b) -> b.hitBufSize(s.asInt()), "512"));
        m.put("selfRefBufSize", new Tunable((s, b) -> b.selfRefBufSize(s.asInt()), "256"));
        m.put("nonisoSlotsPerPeer", new Tunable((s, b) -> b.nonisoSlotsPerPeer(s.asInt()), "128"));
        m.put("isoCreditsPerPeer", new Tunable((s, b) -> b.isoCreditsPerPeer(s.asInt()), "128"));
        m.put("creditThreshold", new Tunable((s, b) -> b.creditThreshold(s.asFraction()), "0.90"));
        m.put("isoCreditThreshold", new Tunable((s, b) -> b.isoCreditThreshold(s.asFraction()), "0.50"));
        m.put("maxSendAttempts", new Tunable((s, b) -> b.maxSendAttempts(s.asInt()), "50"));
        m.put("bucketSize", new Tunable((s, b) -> b.bucketSize(s.asInt()), "0"));
        m.put("readCap", new Tunable((s, b) -> b.readCap(s.asInt()), "64"));
        m.put("tm", new Tunable((s, b) -> b.tmPlacement(s.asPlacement()), "in-rank"));
        return m;
    }
}
