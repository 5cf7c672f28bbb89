package org.portals3j.portals;

import java.util.Objects;
import org.portals3j.transport.IdleMode;

/**
 * Settings of one Portals library instance, including the choices this implementation made where the
 * spec leaves a point open (each named with its open point's id, A-xx).
 *
 * @param interfaces            how many network interfaces each process has ({@code max_interfaces}
 *                              returned by {@code PtlInit}); interface 0 is {@code PTL_IFACE_DEFAULT}
 * @param defaultLimits         the limits an interface gets when {@code desired} is null
 * @param maxMatchListLength    the longest match list; longer gives {@code PTL_ML_TOOLONG} (A-07: the
 *                              spec has no field for it; by default there is no limit beyond
 *                              {@code max_match_entries})
 * @param aclEntryZeroEverywhere whether ACL entry 0 allows same-uid processes on every interface, not
 *                              only the default one (A-29; Portals 3.2 spec §3.10 defines it only for the default)
 * @param idle                  how {@code PtlEQWait} waits
 * @param stagedSendLimit       the largest payload, in bytes, that a put (or a get's reply) copies into a buffer of
 *                              the library's before the transport takes it, so that SEND_END (GET_END) is logged
 *                              as soon as the transport has the message (see the package documentation,
 *                              "When SEND_END is logged"); 0 copies nothing
 * @param stagingBuffers        how many such buffers the library allocates, once, when it is created (each of
 *                              {@code stagedSendLimit} bytes); a put that finds none free is sent from the MD
 * @param oversubscribed        whether the job's ranks on this host outnumber its cores
 *                              ({@link org.portals3j.transport.Oversubscription}): {@code PtlEQWait} and
 *                              {@code PtlEQPoll} then give the core away after a short spin
 */
public record PortalsConfig(int interfaces, NiLimits defaultLimits, int maxMatchListLength,
                            boolean aclEntryZeroEverywhere, IdleMode idle, int stagedSendLimit, int stagingBuffers,
                            boolean oversubscribed) {

    /** The most interfaces a process can have (handles have 5 bits for the interface). */
    public static final int MAX_INTERFACES = 32;
    /** The default {@link #stagedSendLimit}: 8 KiB (bench/README.md, "Staged sends"). */
    public static final int DEFAULT_STAGED_SEND_LIMIT = 8 * 1024;
    /** The default {@link #stagingBuffers}: 64, 512 KiB with the default limit. */
    public static final int DEFAULT_STAGING_BUFFERS = 64;
    /** The most memory the staging buffers may take together (limit times count). */
    public static final long MAX_STAGING_BYTES = 256L << 20;

    public static final PortalsConfig DEFAULT = new PortalsConfig(4, NiLimits.DEFAULT, Integer.MAX_VALUE, true,
            IdleMode.BACKOFF, DEFAULT_STAGED_SEND_LIMIT, DEFAULT_STAGING_BUFFERS, false);

    public PortalsConfig {
        Objects.requireNonNull(defaultLimits, "defaultLimits");
        Objects.requireNonNull(idle, "idle");
        if (interfaces < 1 || interfaces > MAX_INTERFACES) {
            throw new IllegalArgumentException("interfaces must be 1.." + MAX_INTERFACES + ", not " + interfaces);
        }
        if (maxMatchListLength < 1) {
            throw new IllegalArgumentException("maxMatchListLength must be positive, not " + maxMatchListLength);
        }
        if (stagedSendLimit < 0 || stagingBuffers < 0) {
            throw new IllegalArgumentException("stagedSendLimit and stagingBuffers must be >= 0, not "
                    + stagedSendLimit + " and " + stagingBuffers);
        }
        if ((long) stagedSendLimit * stagingBuffers > MAX_STAGING_BYTES) {
            throw new IllegalArgumentException(stagingBuffers + " staging buffers of " + stagedSendLimit
                    + " bytes take more than " + MAX_STAGING_BYTES + " bytes: use fewer or smaller ones");
        }
    }

    public PortalsConfig withInterfaces(int n) {
        return new PortalsConfig(n, defaultLimits, maxMatchListLength, aclEntryZeroEverywhere, idle, stagedSendLimit,
                stagingBuffers, oversubscribed);
    }

    public PortalsConfig withDefaultLimits(NiLimits limits) {
        return new PortalsConfig(interfaces, limits, maxMatchListLength, aclEntryZeroEverywhere, idle, stagedSendLimit,
                stagingBuffers, oversubscribed);
    }

    public PortalsConfig withMaxMatchListLength(int n) {
        return new PortalsConfig(interfaces, defaultLimits, n, aclEntryZeroEverywhere, idle, stagedSendLimit,
                stagingBuffers, oversubscribed);
    }

    public PortalsConfig withAclEntryZeroEverywhere(boolean b) {
        return new PortalsConfig(interfaces, defaultLimits, maxMatchListLength, b, idle, stagedSendLimit,
                stagingBuffers, oversubscribed);
    }

    public PortalsConfig withIdle(IdleMode mode) {
        return new PortalsConfig(interfaces, defaultLimits, maxMatchListLength, aclEntryZeroEverywhere, mode,
                stagedSendLimit, stagingBuffers, oversubscribed);
    }

    /** The waits of this library are told whether the job's ranks oversubscribe this host's cores. */
    public PortalsConfig withOversubscribed(boolean b) {
        return new PortalsConfig(interfaces, defaultLimits, maxMatchListLength, aclEntryZeroEverywhere, idle,
                stagedSendLimit, stagingBuffers, b);
    }

    /** Puts (and get replies) of at most {@code limit} bytes are staged in {@code buffers} buffers; 0 stages none. */
    public PortalsConfig withStaging(int limit, int buffers) {
        return new PortalsConfig(interfaces, defaultLimits, maxMatchListLength, aclEntryZeroEverywhere, idle, limit,
                buffers, oversubscribed);
    }
}
