package org.portals3j.mpi.internal;

import java.util.Locale;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The layer's settings, read once per rank at {@code MPI.Init} from system properties or the environment (the
 * property wins). Each is named here with both spellings.
 *
 * @param eagerLimit    messages of at most this many bytes go eagerly into the receiver's unexpected space
 *                      when the sender holds credit there; larger ones (and every synchronous send) by
 *                      rendezvous. {@code portals3j.mpi.eagerLimit} / {@code PORTALS_MPI_EAGER_LIMIT},
 *                      default 16384
 * @param creditBytes   the unexpected space every rank keeps for each sender (the eager credit a sender holds
 *                      there); {@code portals3j.mpi.creditBytes} / {@code PORTALS_MPI_CREDIT_BYTES}, default
 *                      262144; at least 4 times {@code eagerLimit} rounded to slots
 * @param strictBuffers heap buffers in nonblocking calls are refused with {@code IllegalArgumentException} as
 *                      Open MPI does (mpi-java-api.md section 4.8); {@code portals3j.mpi.strictBuffers} /
 *                      {@code PORTALS_MPI_STRICT_BUFFERS}, default false (accepted)
 */
public record MpiConfig(int eagerLimit, int creditBytes, boolean strictBuffers) {
    /** Space in the unexpected region is handed out in slots of this many bytes (one at least per message). */
    public static final int SLOT = 64;
    public static final MpiConfig DEFAULT = new MpiConfig(16 * 1024, 256 * 1024, false);

    public MpiConfig {
        if (eagerLimit < 0) {
            throw new IllegalArgumentException("eagerLimit must be >= 0, not " + eagerLimit);
        }
        if (creditBytes < 4L * roundUp(eagerLimit) || creditBytes < 4 * SLOT || creditBytes > (1 << 30)) {
            throw new IllegalArgumentException("creditBytes must be at least 4 times the eager limit (" + eagerLimit
                    + " bytes, in slots of " + SLOT + ") and at most 1 GiB, not " + creditBytes);
        }
    }

    /** {@code bytes} rounded up to whole slots, at least one. */
    public static int roundUp(int bytes) {
        return Math.max(SLOT, (bytes + SLOT - 1) / SLOT * SLOT);
    }

    /** The settings given by the system properties and {@code env}, the defaults for the rest. */
    public static MpiConfig from(Map<String, String> env) {
        int eager = intSetting("portals3j.mpi.eagerLimit", "PORTALS_MPI_EAGER_LIMIT", env, DEFAULT.eagerLimit);
        int credit = intSetting("portals3j.mpi.creditBytes", "PORTALS_MPI_CREDIT_BYTES", env,
                Math.max(DEFAULT.creditBytes, 4 * roundUp(eager)));
        String strict = setting("portals3j.mpi.strictBuffers", "PORTALS_MPI_STRICT_BUFFERS", env, "false");
        return new MpiConfig(eager, credit, Boolean.parseBoolean(strict.trim().toLowerCase(Locale.ROOT)));
    }

    private static int intSetting(String property, String variable, Map<String, String> env, int fallback) {
        String v = setting(property, variable, env, Integer.toString(fallback));
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " (or " + variable + ") must be a number of bytes, not '"
                    + v + "'");
        }
    }

    private static String setting(String property, String variable, Map<String, String> env, String fallback) {
        @Nullable String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = env.get(variable);
        }
        return v == null || v.isBlank() ? fallback : v;
    }
}
