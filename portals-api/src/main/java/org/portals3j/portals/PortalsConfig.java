package org.portals3j.portals;

import java.util.Objects;
import org.portals3j.transport.IdleMode;

/**
 * Settings of one Portals library instance, including the choices this implementation made where the
 * spec leaves a point open (each named with its digest item).
 *
 * @param interfaces            how many network interfaces each process has ({@code max_interfaces}
 *                              returned by {@code PtlInit}); interface 0 is {@code PTL_IFACE_DEFAULT}
 * @param defaultLimits         the limits an interface gets when {@code desired} is null
 * @param maxMatchListLength    the longest match list; longer gives {@code PTL_ML_TOOLONG} (A-07: the
 *                              spec has no field for it; by default there is no limit beyond
 *                              {@code max_match_entries})
 * @param aclEntryZeroEverywhere whether ACL entry 0 allows same-uid processes on every interface, not
 *                              only the default one (A-29; L7271 defines it only for the default)
 * @param idle                  how {@code PtlEQWait} waits
 */
public record PortalsConfig(int interfaces, NiLimits defaultLimits, int maxMatchListLength,
                            boolean aclEntryZeroEverywhere, IdleMode idle) {

    /** The most interfaces a process can have (handles have 5 bits for the interface). */
    public static final int MAX_INTERFACES = 32;

    public static final PortalsConfig DEFAULT =
            new PortalsConfig(4, NiLimits.DEFAULT, Integer.MAX_VALUE, true, IdleMode.BACKOFF);

    public PortalsConfig {
        Objects.requireNonNull(defaultLimits, "defaultLimits");
        Objects.requireNonNull(idle, "idle");
        if (interfaces < 1 || interfaces > MAX_INTERFACES) {
            throw new IllegalArgumentException("interfaces must be 1.." + MAX_INTERFACES + ", not " + interfaces);
        }
        if (maxMatchListLength < 1) {
            throw new IllegalArgumentException("maxMatchListLength must be positive, not " + maxMatchListLength);
        }
    }

    public PortalsConfig withInterfaces(int n) {
        return new PortalsConfig(n, defaultLimits, maxMatchListLength, aclEntryZeroEverywhere, idle);
    }

    public PortalsConfig withDefaultLimits(NiLimits limits) {
        return new PortalsConfig(interfaces, limits, maxMatchListLength, aclEntryZeroEverywhere, idle);
    }

    public PortalsConfig withMaxMatchListLength(int n) {
        return new PortalsConfig(interfaces, defaultLimits, n, aclEntryZeroEverywhere, idle);
    }

    public PortalsConfig withAclEntryZeroEverywhere(boolean b) {
        return new PortalsConfig(interfaces, defaultLimits, maxMatchListLength, b, idle);
    }

    public PortalsConfig withIdle(IdleMode mode) {
        return new PortalsConfig(interfaces, defaultLimits, maxMatchListLength, aclEntryZeroEverywhere, mode);
    }
}
