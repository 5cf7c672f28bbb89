package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The header handler's {@code msg_len} read as {@code lapi_return_info_t *}, and its {@code comp_h} and
 * {@code user_info} out-arguments. One object per dispatcher, reused: valid only during the handler's call.
 */
public interface ReturnInfo {
    /**
     * {@code LAPI_BURY_MSG} of {@code ctl_flags}: discard the message's data. Nothing is written, whatever buffer the
     * handler returns (none is needed, even for a multi-packet message, and no error is reported for that); a
     * rendezvous message's data is not fetched, its origin releases it. Everything else proceeds as for a delivered
     * message: the completion handler (if set) runs, {@code tgt_cntr} and the origin's {@code org_cntr} and
     * {@code cmpl_cntr} move (our O-06 counter rule, without the error).
     */
    int BURY_MSG = 1;

    /** {@code msg_len}: the message's {@code udata_len}. */
    long msgLen();

    /**
     * {@code udata_one_pkt_ptr}: a read-only view of the data in the receive buffer for a single-packet message
     * (all {@link #msgLen()} bytes), {@code null} for a multi-packet one. Valid only during the call.
     */
    @Nullable MemorySegment udataOnePacket();

    /** The origin task (not in the man page's struct; the Java binding's {@code src} field). */
    int srcTask();

    /** {@code *comp_h = handler; *user_info = userInfo}; {@code handler} null means none. */
    void setCompletion(@Nullable CompletionHandler handler, @Nullable Object userInfo);

    /** {@code ret_flags}; {@link RetFlag#NORMAL} unless set. */
    void setRetFlags(RetFlag flags);

    RetFlag retFlags();

    /**
     * {@code ctl_flags}: {@link #BURY_MSG} or 0 (the default). A bit the layer does not know is rejected after the
     * handler returns: the error listener is told ({@code AM_ERR}) and the data is discarded as for
     * {@link #BURY_MSG}, never silently ignored.
     */
    void setCtlFlags(int flags);

    int ctlFlags();
}
