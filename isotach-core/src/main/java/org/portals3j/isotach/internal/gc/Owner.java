package org.portals3j.isotach.internal.gc;

/**
 * Who holds a signal or barrier channel (Isotach report §6.4.4, pp. 47-50; §6.5.4, pp. 50-54; C {@code APPLICATION,
 * MLAYER, UNCLAIMED}). The application may register only an {@link #UNCLAIMED} channel (Isotach report App. A.8.1,
 * pp. 100-104); {@link #MLAYER} channels are the layer's own and are never handed out.
 */
public enum Owner {
    /** Registered by the application: it sends on the channel and receives its notices. */
    APPLICATION,
    /** Claimed by the messaging layer itself (signals 0 and 5 = reset, barrier 0 = SHUTDOWN_BARRIER). */
    MLAYER,
    /**
     * Nobody's: signals on it are not reported; the host takes part in its barriers automatically
     * (Isotach report §3.5.1, pp. 18-20).
     */
    UNCLAIMED
}
