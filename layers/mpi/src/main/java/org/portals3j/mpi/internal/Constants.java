package org.portals3j.mpi.internal;

/** Open MPI 5.0's values of the special ranks and tags (mpi-java-api.md section 1.8), used by the engine's checks. */
public final class Constants {
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = -2;
    public static final int ROOT = -4;
    public static final int UNDEFINED = -32766;

    private Constants() {
    }
}
