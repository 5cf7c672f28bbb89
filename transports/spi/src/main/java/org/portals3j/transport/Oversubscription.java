package org.portals3j.transport;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Whether a job's waits are told that its ranks on this host outnumber its cores ({@link #decide}), so that a
 * {@link IdleMode#BACKOFF} wait gives its core away after a short spin (the peer is {@code mpi_yield_when_idle}).
 */
public enum Oversubscription {
    /** Oversubscribed when the ranks on this host outnumber its cores (what the peer does by default). */
    AUTO,
    /** Always oversubscribed: every backing-off wait yields its core early. */
    TRUE,
    /** Never oversubscribed: waits spin as long as {@link IdleMode#BACKOFF} says, however many ranks share cores. */
    FALSE;

    /** The system property of the override ({@code auto}, {@code true} or {@code false}); wins over the variable. */
    public static final String PROPERTY = "portals.idle.oversubscribed";
    /** The environment variable of the override (a job option: {@code portals run} passes it to every rank). */
    public static final String VARIABLE = "PORTALS_IDLE_OVERSUBSCRIBED";
    /** The peer's own override ({@code 1}: yield, {@code 0}: do not), honoured when neither of ours is set. */
    public static final String OPEN_MPI_VARIABLE = "OMPI_MCA_mpi_yield_when_idle";

    /** Whether waits of a job with {@code ranksOnHost} ranks on a host of {@code cores} cores give their core away. */
    public boolean decide(int ranksOnHost, int cores) {
        return switch (this) {
            case AUTO -> ranksOnHost > Math.max(1, cores);
            case TRUE -> true;
            case FALSE -> false;
        };
    }

    /**
     * {@link #decide} on this host's cores ({@link Runtime#availableProcessors}, which honours the affinity mask),
     * with the override of this process ({@link #setting}).
     *
     * @throws IllegalArgumentException if the override is not one of the accepted values (the message names it)
     */
    public static boolean onThisHost(int ranksOnHost) {
        return setting(System.getenv(), System.getProperties()).decide(ranksOnHost,
                Runtime.getRuntime().availableProcessors());
    }

    /**
     * The override: {@link #PROPERTY}, else {@link #VARIABLE}, else {@link #OPEN_MPI_VARIABLE}, else {@link #AUTO}.
     *
     * @throws IllegalArgumentException if the one that is set is not an accepted value (the message names it)
     */
    public static Oversubscription setting(Map<String, String> env, Properties properties) {
        @Nullable String p = properties.getProperty(PROPERTY);
        if (p != null && !p.isBlank()) {
            return parse(PROPERTY, p);
        }
        @Nullable String v = env.get(VARIABLE);
        if (v != null && !v.isBlank()) {
            return parse(VARIABLE, v);
        }
        @Nullable String ompi = env.get(OPEN_MPI_VARIABLE);
        if (ompi != null && !ompi.isBlank()) {
            return switch (ompi.trim()) {
                case "0", "false" -> FALSE;
                case "1", "true" -> TRUE;
                default -> throw new IllegalArgumentException(OPEN_MPI_VARIABLE + "='" + ompi
                        + "' is not 0 or 1: unset it, or set " + VARIABLE + " to auto, true or false");
            };
        }
        return AUTO;
    }

    private static Oversubscription parse(String name, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "true" -> TRUE;
            case "false" -> FALSE;
            default -> throw new IllegalArgumentException(name + "='" + value
                    + "' is not a setting: use auto (yield when the ranks on this host outnumber its cores), true or"
                    + " false");
        };
    }
}
