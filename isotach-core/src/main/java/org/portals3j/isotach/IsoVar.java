package org.portals3j.isotach;

/**
 * A local variable an {@link IsotachNet#isoRead} fills in: the report's {@code struct isovar} (Isotach report §3.4,
 * pp. 14-18; §6.6.2, p. 54). It becomes valid when the read's response arrives and stays valid until it
 * is passed to another {@code isoRead}. {@link IsotachNet#isoRetrieve} waits for it.
 */
public final class IsoVar {
    private volatile boolean valid;
    private volatile long value;
    private long readPulse = -1;

    /** Whether the last read naming this variable has returned its value. */
    public boolean isValid() {
        return valid;
    }

    /** The value returned by the last read, meaningful once {@link #isValid()}. */
    public long value() {
        return value;
    }

    /** The logical time at which the read executed (its corresponding post precedes it); -1 before. */
    public long readPulse() {
        return readPulse;
    }

    /** Invalidates the variable when a new read names it (layer use). */
    public void invalidate() {
        valid = false;
        readPulse = -1;
    }

    /** Stores a read's value and marks the variable valid (layer use; Isotach report §6.6.2, p. 54). */
    public void fill(long newValue, long atPulse) {
        this.value = newValue;
        this.readPulse = atPulse;
        this.valid = true;
    }
}
