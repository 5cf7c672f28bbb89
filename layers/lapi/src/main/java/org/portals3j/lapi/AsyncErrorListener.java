package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code lapi_info_t.err_hndlr}: told of what goes wrong at a target where no call can return it (a handler that
 * throws or returns no buffer for a multi-packet message, an unknown handler index or counter address).
 */
@FunctionalInterface
public interface AsyncErrorListener {
    /** @param srcTask the origin of the message concerned, or -1 */
    void onAsyncError(LapiContext context, int srcTask, String what, @Nullable Throwable cause);
}
