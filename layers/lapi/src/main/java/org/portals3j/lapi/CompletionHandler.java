package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code compl_hndlr_t}: runs at the target after the message's data is in place, on a completion thread (it may
 * block), or inline on the dispatcher thread when the header handler asked for {@link RetFlag#SEND_REPLY}.
 */
@FunctionalInterface
public interface CompletionHandler {
    /** {@code userInfo} is the object the header handler gave with {@link ReturnInfo#setCompletion}. */
    void onComplete(LapiContext context, @Nullable Object userInfo);
}
