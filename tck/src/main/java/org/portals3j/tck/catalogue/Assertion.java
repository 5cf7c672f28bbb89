package org.portals3j.tck.catalogue;

import java.util.Objects;

/**
 * One conformance assertion of the catalogue.
 *
 * @param id the stable id ({@code P-061}); a new assertion gets a new id, ids are never reused
 * @param spec the specification it belongs to
 * @param area the row of the results matrix it counts in, e.g. {@code Match entries}
 * @param section the section of the original spec text, number and title
 * @param lines the source lines it rests on, e.g. {@code L5677, L5761} (lines of {@link Spec#sourceFile()})
 * @param testability how it is checked
 * @param text the assertion, in the kit's words
 * @param note why it is not in the kit (for {@link Testability#ENGINE} and {@link Testability#NO}), or the
 *        open-point resolution it depends on; may be empty
 */
public record Assertion(String id, Spec spec, String area, String section, String lines, Testability testability,
        String text, String note) {

    public Assertion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(area, "area");
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(lines, "lines");
        Objects.requireNonNull(testability, "testability");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(note, "note");
    }

    /** Where to read the spec: section and lines of the source text, for a failure hint. */
    public String specLocation() {
        return spec.title() + " §" + section + ", " + spec.sourceFile() + " " + lines;
    }
}
