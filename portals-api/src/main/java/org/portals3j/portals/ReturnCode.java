package org.portals3j.portals;

/**
 * The return codes of the Portals 3.2 API (table "Function Return Codes", Portals 3.2 spec §3.12, plus
 * {@code PTL_PT_INV_INDEX}, which only the text of {@code PtlACEntry} names, Portals 3.2 spec §3.10.1.1; A-11).
 *
 * <p>The spec gives no numeric values. The values here are this implementation's and are stable:
 * the C header of the native shim uses the same numbers.
 *
 * <p>In the Java API, failures are thrown as {@link PortalsException}. The three codes that are not
 * failures are returned: {@link #EQ_EMPTY} and {@link #EQ_DROPPED} from
 * {@link Portals#eqGet}/{@link Portals#eqWait}, and {@link #NOUPDATE} from {@link Portals#mdUpdate}.
 */
public enum ReturnCode {
    OK(0, "success"),
    AC_INV_INDEX(1, "invalid access control table index"),
    EQ_DROPPED(2, "at least one event has been dropped"),
    EQ_EMPTY(3, "no events available in an event queue"),
    FAIL(4, "error during initialization or cleanup"),
    ILL_MD(5, "illegal memory descriptor values"),
    INIT_DUP(6, "duplicate initialization of an interface"),
    INIT_INV(7, "initialization of an invalid interface"),
    INUSE(8, "the match entry already has a memory descriptor"),
    INV_ASIZE(9, "invalid access control table size"),
    INV_EQ(10, "invalid event queue handle"),
    INV_HANDLE(11, "invalid handle"),
    INV_MD(12, "invalid memory descriptor handle"),
    INV_ME(13, "invalid match entry handle"),
    INV_NI(14, "invalid network interface handle"),
    INV_PROC(15, "invalid process identifier"),
    INV_PTINDEX(16, "invalid Portal table index"),
    INV_REG(17, "invalid status register"),
    INV_SR_INDX(18, "invalid status register index"),
    ML_TOOLONG(19, "match list too long"),
    MD_INUSE(20, "memory descriptor has pending operations"),
    NOINIT(21, "uninitialized API"),
    NOSPACE(22, "insufficient memory"),
    NOUPDATE(23, "no update was performed"),
    PT_FULL(24, "Portal table is full"),
    SEGV(25, "addressing violation"),
    PT_INV_INDEX(26, "invalid Portal table index");

    private static final ReturnCode[] BY_VALUE = values();

    private final int value;
    private final String meaning;

    ReturnCode(int value, String meaning) {
        this.value = value;
        this.meaning = meaning;
    }

    /** The stable numeric value (also used by the C header). */
    public int value() {
        return value;
    }

    /** The spec's own name, e.g. {@code PTL_INV_MD}. */
    public String specName() {
        return "PTL_" + name();
    }

    /** The meaning column of the spec's table. */
    public String meaning() {
        return meaning;
    }

    /**
     * The code with numeric value {@code value}.
     *
     * @throws IllegalArgumentException if no code has that value
     */
    public static ReturnCode of(int value) {
        if (value < 0 || value >= BY_VALUE.length) {
            throw new IllegalArgumentException("no Portals return code has value " + value);
        }
        return BY_VALUE[value];
    }
}
