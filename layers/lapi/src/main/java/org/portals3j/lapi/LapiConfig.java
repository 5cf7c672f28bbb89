package org.portals3j.lapi;

/**
 * {@code lapi_info_t} and the limits the man page leaves to the implementation (lapi-digest.md O-01..O-03, O-11).
 * An immutable value; {@code with*} return a copy.
 *
 * @param completionThreads {@code num_compl_hndlr_thr}: threads that run normal completion handlers (default 1)
 * @param maxUhdr           {@code MAX_UHDR_SZ} (default 1024), a multiple of {@code uhdrAlign}
 * @param uhdrAlign         the word {@code uhdr_len} must be a multiple of (default 8, O-01)
 * @param maxData           {@code LAPI_MAX_MSG_SZ} (default {@code Integer.MAX_VALUE - 8}, O-02)
 * @param packetPayload     the largest {@code uhdr_len + udata_len} sent eagerly, as one packet (default 4096, O-03)
 * @param addressTableSize  {@code LOC_ADDRTBL_SZ} (default 256)
 * @param firstPortal       the first of the Portals table indices the layer uses (it uses a few in a row)
 * @param interruptMode     {@code INTERRUPT_SET}: a dispatcher thread makes progress (default true)
 * @param errorListener     {@code err_hndlr}
 * @param resolver          addresses the context did not issue (the C binding's)
 */
public record LapiConfig(int completionThreads, int maxUhdr, int uhdrAlign, long maxData, int packetPayload,
                         int addressTableSize, int firstPortal, boolean interruptMode, AsyncErrorListener errorListener,
                         AddressResolver resolver) {
    // lapi-core: validation (IllegalArgumentException with what to set), DEFAULT, with* copies.
}
