package org.portals3j.bench;

import java.util.List;
import java.util.Locale;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

/**
 * Where a two-rank benchmark's rank threads run ({@code --bind-to}): each on its own CPU, as {@code mpirun} binds rank
 * processes, or floating; {@link #AUTO} binds only where no transport thread would share a bound rank's CPU
 * (bench/README.md, "Placement").
 */
public enum Placement {
    /** Rank thread r on the r-th CPU the measuring thread may use; the threads a rank starts inherit it. */
    CORE,
    /** Every thread may run on every CPU of the process's mask. */
    NONE,
    /**
     * {@link #CORE} on a transport that delivers inline ({@link TransportCapability#INLINE_DELIVERY}: it runs no
     * thread of its own to share a bound rank's CPU) where two CPUs can be bound; {@link #NONE} otherwise. The default.
     */
    AUTO;

    /** What {@link #AUTO} chose for a transport, and why, for the output's placement line. */
    record Choice(Placement placement, String how) {
    }

    static Placement parse(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "core" -> CORE;
            case "none" -> NONE;
            default -> throw new IllegalArgumentException("--bind-to must be auto, core or none, not '" + name + "'");
        };
    }

    /** {@link #CORE} or {@link #NONE} for {@code transport}, with the option's words for the placement line. */
    Choice choose(String transport) {
        if (this != AUTO) {
            return new Choice(this, "--bind-to " + name().toLowerCase(Locale.ROOT));
        }
        boolean inline = Transports.find(transport)
                .map(p -> p.capabilities().contains(TransportCapability.INLINE_DELIVERY)).orElse(false);
        if (!inline) {
            return new Choice(NONE, "--bind-to auto: " + transport + " does not deliver inline, and its threads would"
                    + " share a bound rank's CPU");
        }
        String unbindable = unbindableReason();
        if (unbindable != null) {
            return new Choice(NONE, "--bind-to auto: " + unbindable);
        }
        return new Choice(CORE, "--bind-to auto: " + transport + " delivers inline, so no thread of its own shares a"
                + " bound rank's CPU");
    }

    /** The CPUs of rank 0 and 1 for {@link #CORE}: the first two this thread may use. */
    int[] cpus() {
        String unbindable = unbindableReason();
        if (unbindable != null) {
            throw new IllegalArgumentException("--bind-to core: " + unbindable + "; use --bind-to none");
        }
        List<Integer> allowed = CpuAffinity.allowed();
        return new int[] {allowed.get(0), allowed.get(1)};
    }

    /** Why this thread cannot bind two rank threads one per CPU, or null when it can. */
    private static String unbindableReason() {
        String reason = CpuAffinity.unavailableReason();
        if (reason != null) {
            return reason;
        }
        List<Integer> allowed = CpuAffinity.allowed();
        return allowed.size() < 2 ? "binding needs 2 CPUs for the 2 ranks, but this process may use only " + allowed
                : null;
    }
}
