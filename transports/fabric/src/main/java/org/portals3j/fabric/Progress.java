package org.portals3j.fabric;

/** {@code enum fi_progress}: who moves operations forward. */
public enum Progress {
    /** {@code FI_PROGRESS_UNSPEC}. */
    UNSPEC,
    /** {@code FI_PROGRESS_AUTO}: the provider, in its own threads. */
    AUTO,
    /** {@code FI_PROGRESS_MANUAL}: the application, by reading the completion queue. */
    MANUAL;

    static Progress of(int v) {
        Progress[] all = values();
        return v >= 0 && v < all.length ? all[v] : UNSPEC;
    }
}
