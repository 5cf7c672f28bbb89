package org.portals3j.lapi;

/**
 * LAPI's return codes other than {@code LAPI_SUCCESS}, spelled as IBM's {@code lapi.h} spells them. The numeric
 * values are this implementation's ({@code lapi.h} of the C binding carries the same ones): the man pages give
 * names, not values.
 */
public enum LapiError {
    /** {@code LAPI_ERR_HNDL_INVALID}: the handle was never returned by Init, or has been terminated. */
    HNDL_INVALID(412),
    /** {@code LAPI_ERR_TGT}: the target task is outside {@code 0 .. NUM_TASKS-1}. */
    TGT(413),
    /** {@code LAPI_ERR_HDR_HNDLR_NULL}: the header handler is NULL ({@code 0}). */
    HDR_HNDLR_NULL(414),
    /** {@code LAPI_ERR_UHDR_NULL}: {@code uhdr} is NULL but {@code uhdr_len} is not 0. */
    UHDR_NULL(415),
    /** {@code LAPI_ERR_UHDR_LEN}: {@code uhdr_len} is over {@code MAX_UHDR_SZ} or not a multiple of the word size. */
    UHDR_LEN(416),
    /** {@code LAPI_ERR_ORG_ADDR_NULL}: the origin buffer is NULL but its length is not 0. */
    ORG_ADDR_NULL(417),
    /** {@code LAPI_ERR_DATA_LEN}: the data length is over {@code LAPI_MAX_MSG_SZ} (or negative). */
    DATA_LEN(418),
    /** {@code LAPI_ERR_TGT_PURGED}: the call returned early because {@code LAPI_Purge_totask} was called. */
    TGT_PURGED(419),
    /** {@code LAPI_ERR_CNTR_NULL}: a counter argument that must be given is NULL. */
    CNTR_NULL(420),
    /** {@code LAPI_ERR_RET_PTR_NULL}: an out-argument ("return pointer") is NULL. */
    RET_PTR_NULL(421),
    /** {@code LAPI_ERR_ADDR_HNDL_RANGE}: an address-table index is outside {@code 1 .. LOC_ADDRTBL_SZ-1}. */
    ADDR_HNDL_RANGE(422),
    /** {@code LAPI_ERR_TGT_ADDR_NULL}: the target address is NULL but the length is not 0. */
    TGT_ADDR_NULL(423),
    /** {@code LAPI_ERR_QUERY_TYPE}: Qenv or Senv with a query it does not know (or Senv with a read-only one). */
    QUERY_TYPE(424),
    /** {@code LAPI_ERR_SET_VAL}: Senv with a value the query does not accept. */
    SET_VAL(425),
    /** {@code LAPI_ERR_INFO_NULL}: Init without its {@code lapi_info_t}. */
    INFO_NULL(426),
    /** {@code LAPI_ERR_ALL_HNDL_IN_USE}: Init when every handle is in use. */
    ALL_HNDL_IN_USE(427),
    /** {@code LAPI_ERR_MEMORY_EXHAUSTED}: the layer could not get the memory or Portals resources it needs. */
    MEMORY_EXHAUSTED(428),
    /**
     * {@code LAPI_ERR_BLOCKING_IN_HANDLER} (this implementation's): a blocking call (Waitcntr, Fence, Gfence,
     * Address_init, Term) made on the dispatcher thread, from a header handler or an inline completion handler,
     * where it would deadlock (our choice, open point: the man pages do not say what such a call does).
     */
    BLOCKING_IN_HANDLER(429),
    /** {@code LAPI_ERR_UNKNOWN}: the layer failed for a reason it cannot name (the exception's cause says it). */
    UNKNOWN(499);

    /** {@code LAPI_SUCCESS}. */
    public static final int SUCCESS = 0;

    private final int code;

    LapiError(int code) {
        this.code = code;
    }

    /** The C value. */
    public int code() {
        return code;
    }

    /** The C name, {@code LAPI_ERR_} and the constant's name. */
    public String cName() {
        return "LAPI_ERR_" + name();
    }
}
