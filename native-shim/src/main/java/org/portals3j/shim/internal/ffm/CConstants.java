package org.portals3j.shim.internal.ffm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;

/**
 * The one mapping between the numbers of {@code portals3.h} and the Java API's types. The header's
 * values were chosen to be the Java values ({@link ReturnCode#value()}, enum ordinals, {@code MdOption}
 * bits, {@code -1} for the all-ones wildcards), so the mapping is the identity on numbers; what this class
 * adds is the checking of values a C program can pass that Java types cannot hold. The layout test
 * ({@code layout_check.c}) prints every header constant and compares it with the Java side.
 *
 * <p>Where Portals 3.3 numbers differently ({@code ptl_event_kind_t}), or has a type 3.2 lacks
 * ({@code ptl_time_t}), the 3.3 mapping is here too ({@code layout_check33.c} checks it).
 */
public final class CConstants {
    /** {@code PTL_OK}. */
    public static final int OK = ReturnCode.OK.value();
    /** {@code PTL_FAIL}: also the answer to a value outside its C enum (the spec has no code for it). */
    public static final int FAIL = ReturnCode.FAIL.value();
    public static final int NOINIT = ReturnCode.NOINIT.value();
    public static final int SEGV = ReturnCode.SEGV.value();
    public static final int NOSPACE = ReturnCode.NOSPACE.value();
    public static final int INV_EQ = ReturnCode.INV_EQ.value();

    /**
     * The 3.3 {@code ptl_event_kind_t} value of each {@link EventKind}, by ordinal: 3.3's twelve kinds in
     * 3.3's order ({@code GET_START, GET_END, PUT_START, PUT_END, GETPUT_START, GETPUT_END, REPLY_START,
     * REPLY_END, SEND_START, SEND_END, ACK, UNLINK}). A 3.3 library never logs a {@code *_FAIL} kind (a
     * failure is in the END event's {@code ni_fail_type}); were one to reach the C side it would be the END
     * of its operation, which is what 3.3 calls it. {@code GETPUT_*} (4, 5) are the target's events of a
     * {@code PtlGetPut}.
     */
    private static final int[] EVENT_KIND_33 = eventKinds33();


    private static final Unlink[] UNLINK = Unlink.values();
    private static final InsertPosition[] POSITION = InsertPosition.values();
    private static final AckRequest[] ACK = AckRequest.values();

    private CConstants() {
    }

    private static int[] eventKinds33() {
        int[] kinds = new int[EventKind.values().length];
        kinds[EventKind.GET_START.ordinal()] = 0;
        kinds[EventKind.GET_END.ordinal()] = 1;
        kinds[EventKind.GET_FAIL.ordinal()] = 1;
        kinds[EventKind.PUT_START.ordinal()] = 2;
        kinds[EventKind.PUT_END.ordinal()] = 3;
        kinds[EventKind.PUT_FAIL.ordinal()] = 3;
        kinds[EventKind.REPLY_START.ordinal()] = 6;
        kinds[EventKind.REPLY_END.ordinal()] = 7;
        kinds[EventKind.REPLY_FAIL.ordinal()] = 7;
        kinds[EventKind.SEND_START.ordinal()] = 8;
        kinds[EventKind.SEND_END.ordinal()] = 9;
        kinds[EventKind.SEND_FAIL.ordinal()] = 9;
        kinds[EventKind.ACK.ordinal()] = 10;
        kinds[EventKind.UNLINK.ordinal()] = 11;
        kinds[EventKind.GETPUT_START.ordinal()] = 4;
        kinds[EventKind.GETPUT_END.ordinal()] = 5;
        return kinds;
    }

    /** The Portals 3.3 {@code ptl_event_kind_t} value of {@code kind} (see {@link #EVENT_KIND_33}). */
    public static int eventKind33(EventKind kind) {
        return EVENT_KIND_33[kind.ordinal()];
    }

    /**
     * A C {@code ptl_time_t} (unsigned 32-bit milliseconds) as {@link Portals33#eqPoll}'s timeout:
     * {@code PTL_TIME_FOREVER} (all ones) is {@link Portals33#TIME_FOREVER}; every other value, up to
     * 4294967294 ms, is itself.
     */
    public static long timeoutFromC(int value) {
        return value == -1 ? Portals33.TIME_FOREVER : Integer.toUnsignedLong(value);
    }

    /** {@code ptl_unlink_t}, or null if {@code value} is neither {@code PTL_RETAIN} nor {@code PTL_UNLINK}. */
    public static @Nullable Unlink unlink(int value) {
        return value >= 0 && value < UNLINK.length ? UNLINK[value] : null;
    }

    /** {@code ptl_ins_pos_t}, or null if {@code value} is neither {@code PTL_INS_BEFORE} nor {@code PTL_INS_AFTER}. */
    public static @Nullable InsertPosition position(int value) {
        return value >= 0 && value < POSITION.length ? POSITION[value] : null;
    }

    /** {@code ptl_ack_req_t}, or null if {@code value} is neither {@code PTL_ACK_REQ} nor {@code PTL_NOACK_REQ}. */
    public static @Nullable AckRequest ackRequest(int value) {
        return value >= 0 && value < ACK.length ? ACK[value] : null;
    }

    /** A C {@code unsigned int} {@code max_offset} as the Java API's {@code long}. */
    public static long maxOffsetFromC(int value) {
        return Integer.toUnsignedLong(value);
    }

    /**
     * The Java API's {@code max_offset} as a C {@code unsigned int} (it came from one, so it fits; larger is clamped).
     */
    public static int maxOffsetToC(long value) {
        return (int) Math.min(Math.max(value, 0L), 0xFFFF_FFFFL);
    }
}
