package org.portals3j.transport.gm.internal.nativeaccess;

/** The gm_status_t values this transport tells apart (gm-libfabric.md section 1.4). */
public final class GmStatus {
    public static final int SUCCESS = 0;
    public static final int FAILURE = 1;
    public static final int OUTPUT_BUFFER_TOO_SMALL = 3;
    public static final int BUSY = 5;
    public static final int INVALID_PARAMETER = 8;
    public static final int OUT_OF_MEMORY = 9;
    public static final int SEND_TIMED_OUT = 15;
    public static final int SEND_REJECTED = 16;
    public static final int SEND_TARGET_PORT_CLOSED = 17;
    public static final int SEND_TARGET_NODE_UNREACHABLE = 18;
    public static final int SEND_DROPPED = 19;

    private GmStatus() {
    }

    /** A name for diagnostics. */
    public static String name(int status) {
        return switch (status) {
            case SUCCESS -> "GM_SUCCESS";
            case FAILURE -> "GM_FAILURE";
            case OUTPUT_BUFFER_TOO_SMALL -> "GM_OUTPUT_BUFFER_TOO_SMALL";
            case BUSY -> "GM_BUSY";
            case INVALID_PARAMETER -> "GM_INVALID_PARAMETER";
            case OUT_OF_MEMORY -> "GM_OUT_OF_MEMORY";
            case SEND_TIMED_OUT -> "GM_SEND_TIMED_OUT";
            case SEND_REJECTED -> "GM_SEND_REJECTED";
            case SEND_TARGET_PORT_CLOSED -> "GM_SEND_TARGET_PORT_CLOSED";
            case SEND_TARGET_NODE_UNREACHABLE -> "GM_SEND_TARGET_NODE_UNREACHABLE";
            case SEND_DROPPED -> "GM_SEND_DROPPED";
            default -> "gm_status_t " + status;
        };
    }
}
