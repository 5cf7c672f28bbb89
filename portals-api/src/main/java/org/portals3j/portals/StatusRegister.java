package org.portals3j.portals;

/**
 * {@code ptl_sr_index_t}: a status register of a network interface, read with {@link Portals#niStatus}.
 *
 * <p>The spec defines only {@link #DROP_COUNT} (Portals 3.2 spec §3.4.3.2); the others are this implementation's
 * ({@code PTL_SR_*} names, as Portals 3.2 spec §3.4.3.2 asks) and break the drop count down by reason, so that a user
 * can tell <em>why</em> messages are dropped. Every register starts at 0 when the interface is initialised
 * and never decreases.
 */
public record StatusRegister(int index) {

    /** {@code PTL_SR_DROP_COUNT}: every message this interface discarded (Portals 3.2 spec §3.2.7, §4.2). */
    public static final StatusRegister DROP_COUNT = new StatusRegister(0);
    /** {@code PTL_SR_DROP_INV_PORTAL}: requests for a portal index outside the table. */
    public static final StatusRegister DROP_INV_PORTAL = new StatusRegister(1);
    /** {@code PTL_SR_DROP_ACL}: requests refused by access control (bad cookie, id, uid or portal). */
    public static final StatusRegister DROP_ACL = new StatusRegister(2);
    /** {@code PTL_SR_DROP_NO_MATCH}: requests that no match entry (with an accepting MD) took. */
    public static final StatusRegister DROP_NO_MATCH = new StatusRegister(3);
    /** {@code PTL_SR_DROP_STALE_MD}: acks and replies for a memory descriptor that no longer exists. */
    public static final StatusRegister DROP_STALE_MD = new StatusRegister(4);
    /** {@code PTL_SR_DROP_ACK_NO_EQ}: acks whose MD has no event queue, or a full one (Portals 3.2 spec §4.2). */
    public static final StatusRegister DROP_ACK_NO_EQ = new StatusRegister(5);
    /** {@code PTL_SR_DROP_WRONG_PID}: messages for a pid this interface does not have (Portals 3.2 spec §4.2). */
    public static final StatusRegister DROP_WRONG_PID = new StatusRegister(6);
    /** {@code PTL_SR_DROP_MALFORMED}: frames that failed validation (remote input is hostile). */
    public static final StatusRegister DROP_MALFORMED = new StatusRegister(7);
    /** {@code PTL_SR_EVENTS_DROPPED}: events lost because their event queue was full (not messages). */
    public static final StatusRegister EVENTS_DROPPED = new StatusRegister(8);
    /** {@code PTL_SR_PUTS_RECEIVED}: put requests accepted. */
    public static final StatusRegister PUTS_RECEIVED = new StatusRegister(9);
    /** {@code PTL_SR_GETS_RECEIVED}: get requests accepted. */
    public static final StatusRegister GETS_RECEIVED = new StatusRegister(10);
    /** {@code PTL_SR_BYTES_RECEIVED}: payload bytes deposited into this interface's memory. */
    public static final StatusRegister BYTES_RECEIVED = new StatusRegister(11);
    /** {@code PTL_SR_BYTES_SENT}: payload bytes sent (puts and replies). */
    public static final StatusRegister BYTES_SENT = new StatusRegister(12);

    /**
     * {@code PTL_SR_SENDS_LOST}: puts and get replies that this interface logged SEND_END or GET_END for when the
     * transport took them (the package documentation, "When SEND_END is logged"), and that the transport then
     * failed to deliver (the peer died, the endpoint closed). Not messages this interface discarded: not part of
     * {@link #DROP_COUNT}.
     */
    public static final StatusRegister SENDS_LOST = new StatusRegister(13);

    /** Number of registers; valid indexes are {@code 0 .. COUNT-1}. */
    public static final int COUNT = 14;

    private static final String[] NAMES = {
        "PTL_SR_DROP_COUNT", "PTL_SR_DROP_INV_PORTAL", "PTL_SR_DROP_ACL", "PTL_SR_DROP_NO_MATCH",
        "PTL_SR_DROP_STALE_MD", "PTL_SR_DROP_ACK_NO_EQ", "PTL_SR_DROP_WRONG_PID", "PTL_SR_DROP_MALFORMED",
        "PTL_SR_EVENTS_DROPPED", "PTL_SR_PUTS_RECEIVED", "PTL_SR_GETS_RECEIVED", "PTL_SR_BYTES_RECEIVED",
        "PTL_SR_BYTES_SENT", "PTL_SR_SENDS_LOST",
    };

    /** True if this names one of the registers above. */
    public boolean isValid() {
        return index >= 0 && index < COUNT;
    }

    /** The register's {@code PTL_SR_*} name. */
    public String specName() {
        return isValid() ? NAMES[index] : "invalid register " + index;
    }
}
