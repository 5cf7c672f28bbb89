package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;

/** The bounded table from {@code lapi_handle_t} to context: a handle is its slot, reused after Term. */
final class Handles {
    static final int MAX = 64;
    private static final @Nullable LapiContext[] TABLE = new LapiContext[MAX];

    private Handles() {
    }

    static synchronized int register(LapiContext context) {
        for (int h = 0; h < MAX; h++) {
            if (TABLE[h] == null) {
                TABLE[h] = context;
                return h;
            }
        }
        throw new LapiException(LapiError.ALL_HNDL_IN_USE, "all " + MAX + " LAPI handles are in use: LAPI_Term one");
    }

    static synchronized void release(int handle, LapiContext context) {
        if (handle >= 0 && handle < MAX && TABLE[handle] == context) {
            TABLE[handle] = null;
        }
    }

    static synchronized @Nullable LapiContext find(int handle) {
        return handle >= 0 && handle < MAX ? TABLE[handle] : null;
    }
}
