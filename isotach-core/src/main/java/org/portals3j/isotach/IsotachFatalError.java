package org.portals3j.isotach;

/**
 * An inconsistency the report treats as fatal (it prints a message and calls {@code shutdown(1)}, Isotach
 * report App. J): a wrong EOP count (I-006), a bucket overflow (I-112), an isochron marker that does not match
 * the oldest outstanding isochron (I-021), a reset after initialisation (I-062). The layer is closed when
 * this is thrown; it is never ignored.
 */
public final class IsotachFatalError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IsotachFatalError(String message) {
        super(message);
    }
}
