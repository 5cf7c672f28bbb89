package org.portals3j.shim.internal.ffm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;

/**
 * The one mapping between the numbers of {@code portals3.h} and the Java API's types. The header's
 * values were chosen to be the Java values ({@link ReturnCode#value()}, enum ordinals, {@code MdOption}
 * bits, {@code -1} for the all-ones wildcards), so the mapping is the identity on numbers; what this class
 * adds is the checking of values a C program can pass that Java types cannot hold. The layout test
 * ({@code layout_check.c}) prints every header constant and compares it with the Java side.
 */
public final class CConstants {
    /** {@code PTL_OK}. */
    public static final int OK = ReturnCode.OK.value();
    /** {@code PTL_FAIL}: also the answer to a value outside its C enum (the spec has no code for it). */
    public static final int FAIL = ReturnCode.FAIL.value();
    public static final int NOINIT = ReturnCode.NOINIT.value();
    public static final int SEGV = ReturnCode.SEGV.value();
    public static final int NOSPACE = ReturnCode.NOSPACE.value();

    private static final Unlink[] UNLINK = Unlink.values();
    private static final InsertPosition[] POSITION = InsertPosition.values();
    private static final AckRequest[] ACK = AckRequest.values();

    private CConstants() {
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

    /** The Java API's {@code max_offset} as a C {@code unsigned int} (it came from one, so it fits; larger is clamped). */
    public static int maxOffsetToC(long value) {
        return (int) Math.min(Math.max(value, 0L), 0xFFFF_FFFFL);
    }
}
