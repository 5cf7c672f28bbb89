package org.portals3j.portals;

/**
 * {@code ptl_event_kind_t}: the fourteen kinds of event of Portals 3.2 (Portals 3.2 spec §3.9.1), whose ordinals are
 * the C enum's implied values (declaration order; the spec writes no initialisers), then the two kinds
 * Portals 3.3 adds for {@code PtlGetPut}, which only a {@link Portals33} library logs.
 *
 * <p>The constants table's {@code PTL_EVENT_ACK_START/END/FAIL} are not in the enum and are not
 * defined here; an acknowledgement is the single event {@link #ACK}.
 */
public enum EventKind {
    GET_START, GET_END, GET_FAIL,
    PUT_START, PUT_END, PUT_FAIL,
    REPLY_START, REPLY_END, REPLY_FAIL,
    SEND_START, SEND_END, SEND_FAIL,
    ACK,
    UNLINK,
    /** Portals 3.3 only: a {@code PtlGetPut} matched an MD of this process (the target). */
    GETPUT_START,
    /** Portals 3.3 only: the target of a {@code PtlGetPut} swapped the bytes and sent the old ones back. */
    GETPUT_END;

    private static final EventKind[] BY_ORDINAL = values();

    /** The spec's name, e.g. {@code PTL_EVENT_PUT_END}. */
    public String specName() {
        return "PTL_EVENT_" + name();
    }

    /** True for the {@code *_START} kinds. */
    public boolean isStart() {
        return this == GET_START || this == PUT_START || this == REPLY_START || this == SEND_START
                || this == GETPUT_START;
    }

    /** True for the kinds only Portals 3.3 has (the {@code PtlGetPut} ones): a 3.2 library never logs them. */
    public boolean isPortals33Only() {
        return this == GETPUT_START || this == GETPUT_END;
    }

    /** True for the {@code *_FAIL} kinds. */
    public boolean isFail() {
        return this == GET_FAIL || this == PUT_FAIL || this == REPLY_FAIL || this == SEND_FAIL;
    }

    /** The kind with this ordinal. */
    public static EventKind of(int ordinal) {
        return BY_ORDINAL[ordinal];
    }
}
