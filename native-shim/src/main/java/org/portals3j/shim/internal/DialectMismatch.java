package org.portals3j.shim.internal;

/**
 * A call compiled for one dialect in a process whose first {@code PtlInit} chose the other: the program
 * mixes files compiled with and without {@code -DPTL_DIALECT_33}. The process's library cannot serve it
 * (one library per process, one dialect per library), so the call fails with {@code PTL_FAIL}, and the
 * message says what to do.
 */
public final class DialectMismatch extends Exception {
    private static final long serialVersionUID = 1L;

    public DialectMismatch(String function, CDialect calledAs, CDialect chosen) {
        super(function + " was compiled for " + calledAs.description() + ", but this process chose "
                + chosen.description() + " at its first PtlInit; a process uses one dialect: compile every file"
                + " that calls Portals functions with the same setting of PTL_DIALECT_33", null, false, false);
    }
}
