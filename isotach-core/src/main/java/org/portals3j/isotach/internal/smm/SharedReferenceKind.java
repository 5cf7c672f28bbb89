package org.portals3j.isotach.internal.smm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.SharedMemoryObserver;

/**
 * The four shared references (sRefs) of the Isotach shared memory model (L372): their codes are the report's
 * sRef subtypes {@code ISO_READ}..{@code ISO_SCHED} (0x11-0x14, C L6603-6640), which are also the kind codes
 * {@link SharedMemoryObserver} reports.
 */
public enum SharedReferenceKind {
    /** Returns the value of the read's corresponding post (L378). */
    READ(SharedMemoryObserver.READ),
    /** A sched and its assign issued together: the variable is substantiated at once (L372, L424-426). */
    WRITE(SharedMemoryObserver.WRITE),
    /** Supplies the value of this host's outstanding sched (L374, L413-422). */
    ASSIGN(SharedMemoryObserver.ASSIGN),
    /** The report's sched: reserves the next post of a variable; the matching assign brings its value (L372, L409). */
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

    /** Whether this kind changes the variable (L372: a change generates one sRef per copy). */
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
