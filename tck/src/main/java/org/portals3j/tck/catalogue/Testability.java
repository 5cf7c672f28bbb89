package org.portals3j.tck.catalogue;

/** How an assertion is checked, the catalogue's {@code testable} column. */
public enum Testability {
    /** Black-box, by a test of the kit: it runs against every transport. */
    KIT("kit"),
    /**
     * Black-box by a test of the kit, which runs against every transport, but only in part: the note says what
     * the kit cannot see, and which engine unit test checks that part, if any. A pass is reported as "partial".
     */
    PARTIAL("partial"),
    /**
     * Testable only white-box (wire bits, internal tables): an engine unit test checks it, named in the
     * assertion's note. It does not depend on the transport, so the kit does not repeat it.
     */
    ENGINE("engine"),
    /** Not testable, or not applicable to this binding; the note says why. */
    NO("no");

    private final String token;

    Testability(String token) {
        this.token = token;
    }

    /** Whether tests of the kit check it, on every transport ({@link #KIT} or {@link #PARTIAL}). */
    public boolean byKit() {
        return this == KIT || this == PARTIAL;
    }

    /** The word the catalogue files use. */
    public String token() {
        return token;
    }

    static Testability parse(String token) {
        for (Testability t : values()) {
            if (t.token.equals(token)) {
                return t;
            }
        }
        throw new IllegalArgumentException("testable must be kit, partial, engine or no, not '" + token + "'");
    }
}
