package org.portals3j.transport.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An {@code int} alone on its cache line, for a flag that some threads write while another reads it constantly
 * (an endpoint's drain flag, an outbox's "frames left" flag): next to other fields, every write to them would cost
 * the reader a cache miss, and every read would cost the writers one (false sharing). Padding on both sides: 64 bytes
 * in a superclass before the value ({@link CacheLinePadding}) and 64 after it in this class.
 *
 * <p>Internal: shared by the runtime modules, not for applications.
 */
public final class PaddedInt extends PaddedIntValue {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedIntValue.class, "value", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long q0;
    long q1;
    long q2;
    long q3;
    long q4;
    long q5;
    long q6;
    long q7;

    /** A volatile read. */
    public int get() {
        return value;
    }

    /** A volatile write: also orders a later read of another field after it (a store-load fence on x86). */
    public void setVolatile(int v) {
        value = v;
    }

    /** A release write: earlier writes are visible first; costs nothing on x86. */
    public void setRelease(int v) {
        VALUE.setRelease(this, v);
    }

    public boolean compareAndSet(int expected, int v) {
        return VALUE.compareAndSet(this, expected, v);
    }
}

/** The value after the padding. */
abstract class PaddedIntValue extends CacheLinePadding {
    volatile int value;
}
