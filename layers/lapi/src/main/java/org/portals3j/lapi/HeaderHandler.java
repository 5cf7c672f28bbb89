package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code hdr_hndlr_t}: runs at the target when a message's header arrives, on the dispatcher thread, and must not
 * block. It chooses where the data goes; it may set a completion handler and {@code ret_flags} through
 * {@code info}.
 */
@FunctionalInterface
public interface HeaderHandler {
    /**
     * @param uhdr the origin's user header, read-only, {@code uhdr_len} bytes (empty, not null, when 0); valid only
     *             during the call
     * @param info {@code msg_len} and {@code lapi_return_info_t}; valid only during the call
     * @return where the data is written: its first {@link ReturnInfo#msgLen()} bytes from offset 0; or
     *     {@code null} when the handler consumed a single-packet message from {@link ReturnInfo#udataOnePacket()}
     *     (or {@code msgLen} is 0)
     */
    @Nullable MemorySegment onHeader(LapiContext context, MemorySegment uhdr, ReturnInfo info);
}
