package org.portals3j.portals.internal.wire;

/**
 * The four message types of chapter 4 (Portals 3.2 spec §4), and the Portals 3.3 reference implementation's GETPUT
 * (the request of {@code PtlGetPut}, answered by a REPLY), with their wire codes.
 */
public enum MessageType {
    PUT(1),
    ACK(2),
    GET(3),
    REPLY(4),
    GETPUT(5);

    private final int code;

    MessageType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with wire code {@code code}, or null for any other byte. */
    public static @org.checkerframework.checker.nullness.qual.Nullable MessageType of(int code) {
        return switch (code) {
            case 1 -> PUT;
            case 2 -> ACK;
            case 3 -> GET;
            case 4 -> REPLY;
            case 5 -> GETPUT;
            default -> null;
        };
    }
}
