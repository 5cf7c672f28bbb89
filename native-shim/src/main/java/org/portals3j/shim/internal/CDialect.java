package org.portals3j.shim.internal;

/**
 * Which C API a call was compiled for: {@code portals3.h} without {@code PTL_DIALECT_33} (Portals 3.2)
 * or with it (Portals 3.3). Each has its own entry points into the library.
 */
public enum CDialect {
    PORTALS_3_2("Portals 3.2 (compiled without -DPTL_DIALECT_33)"),
    PORTALS_3_3("Portals 3.3 (compiled with -DPTL_DIALECT_33)");

    private final String description;

    CDialect(String description) {
        this.description = description;
    }

    /** The dialect and the compiler setting that selects it, for messages. */
    public String description() {
        return description;
    }
}
