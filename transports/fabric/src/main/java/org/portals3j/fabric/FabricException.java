package org.portals3j.fabric;

import org.portals3j.fabric.internal.NativeFabric;

/**
 * A libfabric call failed: carries the call, the positive FI_* error number, its name ({@code FI_ENOKEY}) and
 * {@code fi_strerror}'s text.
 */
public final class FabricException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code FI_EAGAIN}: the provider cannot take the operation now; read the completion queue and retry. */
    public static final int FI_EAGAIN = 11;
    /** {@code FI_EAVAIL}: an error completion is waiting in the queue. */
    public static final int FI_EAVAIL = 259;

    private final int errno;
    private final String errnoName;

    FabricException(String call, int errno, String errnoName, String text) {
        this(call + " failed: " + errnoName + " (" + text + ")", errno, errnoName);
    }

    private FabricException(String message, int errno, String errnoName) {
        super(message);
        this.errno = errno;
        this.errnoName = errnoName;
    }

    /** The exception for {@code call} returning {@code -errno} (or an error completion with {@code errno}). */
    static FabricException of(String call, int errno) {
        NativeFabric lib = NativeFabric.get();
        return new FabricException(call, errno, lib.errnoName(errno), lib.strerror(errno));
    }

    /** As {@link #of(String, int)}, with what the application can do about it. */
    static FabricException of(String call, int errno, String advice) {
        NativeFabric lib = NativeFabric.get();
        String name = lib.errnoName(errno);
        return new FabricException(call + " failed: " + name + " (" + lib.strerror(errno) + "): " + advice, errno,
                name);
    }

    /** Throws if {@code rc} is negative; returns it otherwise. */
    static long check(String call, long rc) {
        if (rc < 0) {
            throw of(call, (int) -rc);
        }
        return rc;
    }

    /** The positive FI_* error number (libfabric returns it negated). */
    public int errno() {
        return errno;
    }

    /** The FI_* name of {@link #errno()}, for example {@code FI_ENOKEY}. */
    public String errnoName() {
        return errnoName;
    }
}
