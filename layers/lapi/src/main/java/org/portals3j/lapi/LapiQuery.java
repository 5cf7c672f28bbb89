package org.portals3j.lapi;

/** The names {@code LAPI_Qenv} and {@code LAPI_Senv} take ({@code lapi_query_t}), in IBM's spelling. */
public enum LapiQuery {
    /** This task's id, {@code 0 .. NUM_TASKS-1}. Read-only. */
    TASK_ID,
    /** The number of tasks. Read-only. */
    NUM_TASKS,
    /** The largest {@code uhdr_len} Amsend accepts. Read-only. */
    MAX_UHDR_SZ,
    /** The largest data length ({@code LAPI_MAX_MSG_SZ}). Read-only. */
    MAX_DATA_SZ,
    /** The bound of Addr_set indices: valid ones are {@code 1 .. LOC_ADDRTBL_SZ-1}. Read-only. */
    LOC_ADDRTBL_SZ,
    /** Parameter checking: 1 on, 0 off (this implementation always checks; see the package documentation). */
    ERROR_CHK,
    /** Interrupt mode (1, a dispatcher thread makes progress) or polling mode (0, progress inside LAPI calls). */
    INTERRUPT_SET,
    /**
     * This implementation's extension: the largest {@code uhdr_len + udata_len} that travels as one packet (eager,
     * with {@code udata_one_pkt_ptr}); longer messages take the rendezvous path (our choice, open
     * point: the LAPI_Amsend man page names no packet size).
     */
    PKT_PAYLOAD_SZ
}
