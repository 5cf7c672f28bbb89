package org.portals3j.fabric;

/** Capability and access bits ({@code FI_MSG}, {@code FI_READ}, ...) of rdma/fabric.h, and op flags of entries. */
public final class Caps {
    public static final long MSG = 1L << 1;
    public static final long RMA = 1L << 2;
    public static final long TAGGED = 1L << 3;
    public static final long READ = 1L << 8;
    public static final long WRITE = 1L << 9;
    public static final long RECV = 1L << 10;
    public static final long SEND = 1L << 11;
    public static final long REMOTE_READ = 1L << 12;
    public static final long REMOTE_WRITE = 1L << 13;
    /** Completion flag: the entry carries remote CQ data ({@code FI_REMOTE_CQ_DATA}). */
    public static final long REMOTE_CQ_DATA = 1L << 17;
    public static final long SOURCE = 1L << 57;

    private Caps() {
    }
}
