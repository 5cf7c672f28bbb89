package org.portals3j.portals;

/**
 * What {@link Portals33#eqPoll} gives back: {@code PtlEQPoll}'s return code and its {@code which_eq}
 * out-argument.
 *
 * <p>The results for the first {@value #CACHED} queue positions are preallocated, so a poll that takes an
 * event allocates nothing.
 *
 * @param status {@link ReturnCode#OK} or {@link ReturnCode#EQ_DROPPED} when an event was taken;
 *               {@link ReturnCode#EQ_EMPTY} when the timeout passed first
 * @param which  the position, in the array given, of the queue the event came from; -1 with {@code EQ_EMPTY}
 */
public record EqPollResult(ReturnCode status, int which) {

    /** How many queue positions have preallocated results. */
    public static final int CACHED = 64;

    /** The timeout passed and no queue had an event. */
    public static final EqPollResult EMPTY = new EqPollResult(ReturnCode.EQ_EMPTY, -1);

    private static final EqPollResult[] OK = new EqPollResult[CACHED];
    private static final EqPollResult[] DROPPED = new EqPollResult[CACHED];

    static {
        for (int i = 0; i < CACHED; i++) {
            OK[i] = new EqPollResult(ReturnCode.OK, i);
            DROPPED[i] = new EqPollResult(ReturnCode.EQ_DROPPED, i);
        }
    }

    public EqPollResult {
        if (status != ReturnCode.OK && status != ReturnCode.EQ_DROPPED && status != ReturnCode.EQ_EMPTY) {
            throw new IllegalArgumentException("PtlEQPoll returns OK, EQ_DROPPED or EQ_EMPTY, not " + status);
        }
        if ((status == ReturnCode.EQ_EMPTY) != (which < 0)) {
            throw new IllegalArgumentException("which is -1 exactly when no event was taken, not " + which
                    + " with " + status);
        }
    }

    /** The result for an event taken from queue {@code which} with {@code status} OK or EQ_DROPPED. */
    public static EqPollResult of(ReturnCode status, int which) {
        if (which >= 0 && which < CACHED) {
            if (status == ReturnCode.OK) {
                return OK[which];
            }
            if (status == ReturnCode.EQ_DROPPED) {
                return DROPPED[which];
            }
        }
        return new EqPollResult(status, which);
    }

    /** True if an event was taken. */
    public boolean taken() {
        return which >= 0;
    }
}
