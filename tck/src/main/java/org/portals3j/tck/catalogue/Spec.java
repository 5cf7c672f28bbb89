package org.portals3j.tck.catalogue;

/** The specifications the kit checks, each with its own id prefix and catalogue file. */
public enum Spec {
    /** Portals 3.2 (Sandia); its catalogue cites the document by section (the document has no page numbers). */
    PORTALS("P", "Portals 3.2", "portals-3.2.tsv", "The Portals 3.2 Message Passing Interface, Revision 1.1"),
    /** The Isotach messaging layer; its catalogue cites the report by section and page. */
    ISOTACH("I", "Isotach", "isotach.tsv", "The Isotach Messaging Layer: Ironman Design (UVa TR CS-2000-17)"),
    /**
     * LAPI-style active messages (IBM's LAPI_Amsend man page and its surrounding calls). Its catalogue cites the
     * man pages by name and section, not lines.
     */
    LAPI("L", "LAPI", "lapi.tsv", "IBM's LAPI man pages (LAPI_Amsend and the calls around it)");

    private final String prefix;
    private final String title;
    private final String catalogueFile;
    private final String document;

    Spec(String prefix, String title, String catalogueFile, String document) {
        this.prefix = prefix;
        this.title = title;
        this.catalogueFile = catalogueFile;
        this.document = document;
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
     * The document the catalogue's sections and pages are those of, by its published title; for {@link #LAPI},
     * whose rows cite the man pages by name and section, the kit's catalogue, whose section numbers these are.
     */
    public String document() {
        return document;
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
