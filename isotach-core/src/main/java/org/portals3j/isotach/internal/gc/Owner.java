package org.portals3j.isotach.internal.gc;

/**
 * Who holds a signal or barrier channel (report L1609, L1764; C {@code APPLICATION, MLAYER, UNCLAIMED}).
 * The application may register only an {@link #UNCLAIMED} channel (L3528, L3536); {@link #MLAYER} channels are
 * the layer's own and are never handed out.
 */
public enum Owner {
    /** Registered by the application: it sends on the channel and receives its notices. */
    APPLICATION,
    /** Claimed by the messaging layer itself (signals 0 and 5 = reset, barrier 0 = SHUTDOWN_BARRIER). */
    MLAYER,
    /** Nobody's: signals on it are not reported; the host takes part in its barriers automatically (L473). */
    UNCLAIMED
}
