package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code lapi_info_t.err_hndlr}: told of what goes wrong at a target where no call can return it (a handler that
 * throws or returns no buffer for a multi-packet message, an unknown handler index or counter address), with the
 * kind of transfer concerned ({@code err_type}).
 */
@FunctionalInterface
public interface AsyncErrorListener {
    /**
     * @param type    the kind of transfer: {@link AsyncErrorType#AM_ERR}, {@code PUT_ERR}, {@code GET_ERR}, or
     *                {@code INT_ERR} for the layer's own
     * @param srcTask the origin of the message concerned, or -1
     */
    void onAsyncError(LapiContext context, AsyncErrorType type, int srcTask, String what, @Nullable Throwable cause);
}
