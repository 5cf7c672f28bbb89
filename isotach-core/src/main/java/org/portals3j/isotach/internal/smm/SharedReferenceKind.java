package org.portals3j.isotach.internal.smm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.SharedMemoryObserver;

/**
 * The four shared references (sRefs) of the Isotach shared memory model (Isotach report §3.4, pp. 14-18): their codes
 * are the report's sRef subtypes {@code ISO_READ}..{@code ISO_SCHED} (0x11-0x14, Isotach report App. J, utils.h,
 * pp. 169-175), which are also the kind codes {@link SharedMemoryObserver} reports.
 */
public enum SharedReferenceKind {
    /** Returns the value of the read's corresponding post (Isotach report §3.4, pp. 14-18). */
    READ(SharedMemoryObserver.READ),
    /**
     * A sched and its assign issued together: the variable is substantiated at once (Isotach report §3.4, pp. 14-18).
     */
    WRITE(SharedMemoryObserver.WRITE),
    /** Supplies the value of this host's outstanding sched (Isotach report §3.4, pp. 14-18). */
    ASSIGN(SharedMemoryObserver.ASSIGN),
    /**
     * The report's sched: reserves the next post of a variable; the matching assign brings its value
     * (Isotach report §3.4, pp. 14-18).
     */
    SCHEDULE(SharedMemoryObserver.SCHED);

    private static final SharedReferenceKind[] VALUES = values();

    private final int code;

    SharedReferenceKind(int code) {
        this.code = code;
    }

    /** The subtype code (0x11-0x14). */
    public int code() {
        return code;
    }

    /**
     * Whether this kind changes the variable (Isotach report §3.4, pp. 14-18: a change generates one sRef per copy).
     */
    public boolean isChange() {
        return this != READ;
    }

    /** The kind with subtype {@code code}, or null for any other value (a hostile byte is not an error). */
    public static @Nullable SharedReferenceKind of(int code) {
        for (SharedReferenceKind k : VALUES) {
            if (k.code == code) {
                return k;
            }
        }
        return null;
    }
}
