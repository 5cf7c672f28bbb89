package org.portals3j.tck.catalogue;

import java.util.Objects;

/**
 * One conformance assertion of the catalogue.
 *
 * @param id the stable id ({@code P-061}); a new assertion gets a new id, ids are never reused
 * @param spec the specification it belongs to
 * @param area the row of the results matrix it counts in, e.g. {@code Match entries}
 * @param section the section of the original spec text, number and title; for the Portals 3.3 dialect's
 *        assertions (in the Portals catalogue) {@code Portals 3.3 §n.n title}, a section of the 3.3 document; for a
 *        LAPI assertion a man page and its section, e.g. {@code LAPI_Amsend, Parameters: uhdr_len}
 * @param refs the parts of {@link Spec#document()} it rests on: sections, e.g. {@code §3.8.1.1, §3.9.4}, and for
 *        the Isotach report also pages, e.g. {@code §3.3.3, pp. 10-14; App. C, pp. 109-112}; for a Portals 3.3
 *        assertion the sources the rule was read from (the 3.3 document was not at hand); for a LAPI assertion the
 *        man page sections and the layer's choices it rests on, the section first, e.g.
 *        {@code LAPI_Amsend, Return Values; our choice O-07 (package org.portals3j.lapi)}
 * @param testability how it is checked
 * @param text the assertion, in the kit's words
 * @param note why it is not in the kit (for {@link Testability#ENGINE} and {@link Testability#NO}), or the
 *        open-point resolution it depends on; may be empty
 */
public record Assertion(String id, Spec spec, String area, String section, String refs, Testability testability,
        String text, String note) {

    public Assertion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(area, "area");
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(refs, "refs");
        Objects.requireNonNull(testability, "testability");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(note, "note");
    }

    /** The prefix of {@link #section} for an assertion about the Portals 3.3 dialect. */
    public static final String PORTALS_33 = "Portals 3.3 §";

    /**
     * Where to read the spec: section and references into the published document, for a failure hint. A Portals 3.3
     * assertion names its own document and sources: the 3.2 text is not where to read it.
     */
    public String specLocation() {
        if (section.startsWith(PORTALS_33)) {
            return section + ", " + refs;
        }
        if (spec == Spec.LAPI) {
            return spec.title() + ": " + refs; // refs begins with the section, a man page and its section
        }
        return spec.title() + " §" + section + ": " + spec.document() + " " + refs;
    }
}
