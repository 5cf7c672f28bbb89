package org.portals3j.tck.catalogue;

/** The specifications the kit checks, each with its own id prefix and catalogue file. */
public enum Spec {
    /** Portals 3.2 (Sandia); line numbers refer to {@code portals-3.2.numbered.lyx}. */
    PORTALS("P", "Portals 3.2", "portals-3.2.tsv", "portals-3.2.numbered.lyx"),
    /** The Isotach messaging layer (UVa TR CS-2000-17); line numbers refer to {@code isotach-ironman.txt}. */
    ISOTACH("I", "Isotach", "isotach.tsv", "isotach-ironman.txt"),
    /**
     * LAPI-style active messages (IBM's LAPI_Amsend man page and its surrounding calls), as digested in
     * {@code lapi-digest.md} section 4. Its catalogue cites documents and sections, not lines.
     */
    LAPI("L", "LAPI", "lapi.tsv", "lapi-digest.md");

    private final String prefix;
    private final String title;
    private final String catalogueFile;
    private final String sourceFile;

    Spec(String prefix, String title, String catalogueFile, String sourceFile) {
        this.prefix = prefix;
        this.title = title;
        this.catalogueFile = catalogueFile;
        this.sourceFile = sourceFile;
    }

    /** The letter its assertion ids start with ({@code P} of {@code P-061}). */
    public String prefix() {
        return prefix;
    }

    /** Its name for people, e.g. {@code Portals 3.2}. */
    public String title() {
        return title;
    }

    /** The catalogue resource, relative to this package. */
    String catalogueFile() {
        return catalogueFile;
    }

    /**
     * The spec text the catalogue's line numbers refer to; for {@link #LAPI}, whose rows cite documents and
     * sections instead, the digest the section numbers are those of.
     */
    public String sourceFile() {
        return sourceFile;
    }

    /** The spec an assertion id belongs to, by its prefix. */
    public static Spec ofId(String id) {
        for (Spec s : values()) {
            if (id.startsWith(s.prefix + "-")) {
                return s;
            }
        }
        throw new IllegalArgumentException("not an assertion id: '" + id + "' (ids look like P-061, I-017 or L-042)");
    }
}
