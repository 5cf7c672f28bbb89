package org.portals3j.transport.udp.internal.wire;

/** The datagram types (the header's type byte). */
public final class DatagramType {
    /** A fragment of a message; carries acknowledgements for the reverse direction too. */
    public static final int DATA = 1;
    /** Acknowledgements only (cumulative, selective, window). */
    public static final int ACK = 2;
    /** "Still here" when nothing else was sent for a while; carries acknowledgements. */
    public static final int HEARTBEAT = 3;
    /** The sender's endpoint is closing: the receiver declares it dead at once. */
    public static final int BYE = 4;
    /**
     * The sender declared the receiver dead (it heard nothing from it for its peer timeout) and drops its
     * datagrams: the receiver declares the sender dead at once rather than after its own timeout.
     */
    public static final int DEAD_NOTICE = 5;

    private DatagramType() {
    }

    public static boolean isKnown(int type) {
        return type >= DATA && type <= DEAD_NOTICE;
    }

    public static String name(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case ACK -> "ACK";
            case HEARTBEAT -> "HEARTBEAT";
            case BYE -> "BYE";
            case DEAD_NOTICE -> "DEAD_NOTICE";
            default -> "type-" + type;
        };
    }
}
