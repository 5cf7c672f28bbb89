package org.portals3j.mpi.internal;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The attribute keyvals of one rank (mpi-java-api.md section 2.7; MPI 4.1 section 7.7): the predefined keys, those
 * {@code createKeyval} made for communicators or for datatypes, and the attributes cached on datatypes (by object;
 * dropped with the object). A keyval of one kind used on the other, a predefined key where only user keyvals go, a
 * freed or never-made keyval are each {@code ERR_KEYVAL}. User keyvals are numbered from {@link #FIRST_USER} up and
 * not reused. A freed keyval's values stay where they are until deleted or their object is freed, but no call may
 * name it again (MPI 4.1 section 7.7.2 makes that erroneous; here it is an error).
 */
public final class Keyvals {
    /** What a keyval is for. */
    public enum Kind { COMMUNICATOR, DATATYPE }

    /** Predefined keys: {@code TAG_UB} (0) to {@code WIN_DISP_UNIT} (9). */
    public static final int PREDEFINED_COUNT = 10;
    /** The first user keyval. */
    static final int FIRST_USER = 16;

    private final Map<Integer, Kind> live = new HashMap<>();
    private int next = FIRST_USER;
    private final Map<Object, Attributes> datatypeAttributes = Collections.synchronizedMap(new WeakHashMap<>());

    public synchronized int create(Kind kind) {
        if (next == Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.OTHER, "no keyval is left: a process can make "
                    + (Integer.MAX_VALUE - FIRST_USER) + " in its life");
        }
        int keyval = next++;
        live.put(keyval, kind);
        return keyval;
    }

    /** Frees user keyval {@code keyval} of {@code kind}. */
    public synchronized void free(int keyval, Kind kind) {
        check(keyval, kind);
        live.remove(keyval);
    }

    /** Fails with ERR_KEYVAL unless {@code keyval} is a live user keyval of {@code kind}. */
    public synchronized void check(int keyval, Kind kind) {
        if (keyval >= 0 && keyval < PREDEFINED_COUNT) {
            throw new MpiError(ErrorClass.KEYVAL, "keyval " + keyval + " is predefined: it cannot be set, deleted or"
                    + " freed (use a keyval from createKeyval)");
        }
        Kind k = live.get(keyval);
        if (k == null) {
            throw new MpiError(ErrorClass.KEYVAL, "invalid keyval " + keyval + ": it was freed, or never made by"
                    + " createKeyval on this process");
        }
        if (k != kind) {
            throw new MpiError(ErrorClass.KEYVAL, "keyval " + keyval + " was made for " + describe(k)
                    + ", not for " + describe(kind));
        }
    }

    /** The attributes cached on datatype {@code type} (by identity) on this rank. */
    public Attributes ofDatatype(Object type) {
        return datatypeAttributes.computeIfAbsent(type, t -> new Attributes());
    }

    /**
     * The value of predefined key {@code keyval} on a communicator that caches them (MPI 4.1 section 9.1.2, values as
     * Open MPI gives them): {@code TAG_UB} the largest tag, {@code HOST} {@code PROC_NULL} (no host process),
     * {@code IO} {@code ANY_SOURCE} (every process can do I/O), {@code WTIME_IS_GLOBAL} false (each process's clock
     * is its own), {@code APPNUM} 0 (one program), {@code LASTUSEDCODE} {@code ERR_LASTCODE} (no user error codes),
     * {@code UNIVERSE_SIZE} the job's size (no process can be added). The window keys are ERR_KEYVAL here.
     */
    public static Object predefinedValue(int keyval, int jobSize) {
        return switch (keyval) {
            case 0 -> MatchBits.TAG_UB;
            case 1 -> Constants.PROC_NULL;
            case 2 -> Constants.ANY_SOURCE;
            case 3 -> Boolean.FALSE;
            case 4 -> 0;
            case 5 -> ErrorClass.LASTCODE;
            case 6 -> jobSize;
            default -> throw new MpiError(ErrorClass.KEYVAL, "keyval " + keyval + " is a window's (WIN_BASE,"
                    + " WIN_SIZE, WIN_DISP_UNIT): a communicator has no such attribute");
        };
    }

    private static String describe(Kind k) {
        return k == Kind.COMMUNICATOR ? "communicators (Comm.createKeyval)" : "datatypes (Datatype.createKeyval)";
    }
}
