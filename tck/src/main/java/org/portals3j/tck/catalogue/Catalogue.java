package org.portals3j.tck.catalogue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every conformance assertion of the kit's specifications: the machine-readable catalogue the kit is traced
 * to. It is kept as one tab-separated file per spec beside this class ({@code portals-3.2.tsv},
 * {@code isotach.tsv}, {@code lapi.tsv}), with the columns {@code id area section refs testable assertion note}; lines
 * starting with {@code #} are comments. {@code testable} is {@code kit}, {@code partial} (the kit sees only part
 * of it), {@code engine} or {@code no} ({@link Testability}); every row but a {@code kit} one needs its note. Ids are
 * stable across releases: an assertion that changes meaning gets a new id, and an id is never reused.
 */
public final class Catalogue {
    /** The header line each catalogue file starts with (after comments). */
    public static final String HEADER = "id\tarea\tsection\trefs\ttestable\tassertion\tnote";

    private static final Pattern ID = Pattern.compile("[PIL]-\\d{3}");

    private final Map<String, Assertion> byId;

    private Catalogue(Map<String, Assertion> byId) {
        this.byId = Collections.unmodifiableMap(byId);
    }

    /** The catalogue shipped with the kit (every spec), read once. */
    public static Catalogue builtIn() {
        return BuiltIn.CATALOGUE;
    }

    /** Loaded on first use (the holder idiom: thread-safe without a lock). */
    private static final class BuiltIn {
        static final Catalogue CATALOGUE = load();

        private static Catalogue load() {
            Map<String, Assertion> all = new LinkedHashMap<>();
            for (Spec spec : Spec.values()) {
                String resource = spec.catalogueFile();
                try (InputStream in = Catalogue.class.getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new CatalogueException("the kit's catalogue " + resource
                                + " is missing from the class path");
                    }
                    all.putAll(parse(spec, resource, readLines(in)).byId);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the catalogue " + resource, e);
                }
            }
            return new Catalogue(all);
        }
    }

    /**
     * Parses one spec's catalogue file.
     *
     * @param source the file name, for error messages
     * @throws CatalogueException naming {@code source:line} and what is wrong
     */
    public static Catalogue parse(Spec spec, String source, List<String> lines) {
        Map<String, Assertion> byId = new LinkedHashMap<>();
        boolean headerSeen = false;
        String previous = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String where = source + ":" + (i + 1) + ": ";
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (!headerSeen) {
                if (!line.equals(HEADER)) {
                    throw new CatalogueException(where + "the first line that is not a comment must be the header '"
                            + HEADER.replace('\t', ' ') + "' (tab-separated)");
                }
                headerSeen = true;
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 6 && f.length != 7) {
                throw new CatalogueException(where + "expected 7 tab-separated fields, found " + f.length);
            }
            String id = f[0];
            if (!ID.matcher(id).matches() || Spec.ofId(id) != spec) {
                throw new CatalogueException(where + "'" + id + "' is not a " + spec.title() + " id (" + spec.prefix()
                        + "-NNN)");
            }
            if (id.compareTo(previous) <= 0) {
                throw new CatalogueException(where + id + " is out of order or repeated (after " + previous + ")");
            }
            previous = id;
            Testability testability;
            try {
                testability = Testability.parse(f[4]);
            } catch (IllegalArgumentException e) {
                throw new CatalogueException(where + e.getMessage());
            }
            String note = f.length == 7 ? f[6] : "";
            String[] names = {"id", "area", "section", "refs", "testable", "assertion"};
            for (int k = 0; k < names.length; k++) {
                if (f[k].isBlank() || !f[k].equals(f[k].strip())) {
                    throw new CatalogueException(where + names[k] + " is empty or has spaces around it");
                }
            }
            if (testability != Testability.KIT && note.isBlank()) {
                throw new CatalogueException(where + id + " is '" + testability.token()
                        + "': the note must say how it is checked, or why it cannot be");
            }
            byId.put(id, new Assertion(id, spec, f[1], f[2], f[3], testability, f[5], note.strip()));
        }
        if (!headerSeen) {
            throw new CatalogueException(source + ": no header line and no assertions");
        }
        return new Catalogue(byId);
    }

    private static List<String> readLines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Every assertion, P before I before L, each in id order. */
    public List<Assertion> all() {
        return List.copyOf(byId.values());
    }

    /** The assertions of one spec, in id order. */
    public List<Assertion> of(Spec spec) {
        return byId.values().stream().filter(a -> a.spec() == spec).toList();
    }

    /** The assertion with this id, if the catalogue has it. */
    public Optional<Assertion> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The areas of one spec, in the order they first appear: the rows of the results matrix. */
    public List<String> areas(Spec spec) {
        Set<String> areas = new LinkedHashSet<>();
        for (Assertion a : of(spec)) {
            areas.add(a.area());
        }
        return List.copyOf(areas);
    }
}
