package org.portals3j.tck.catalogue;

/** A catalogue file that does not follow the format; the message names the file and line. */
public final class CatalogueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CatalogueException(String message) {
        super(message);
    }
}
