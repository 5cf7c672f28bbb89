package org.portals3j.transport.gm;

import java.util.Locale;
import java.util.Map;
import org.portals3j.transport.TransportException;

/**
 * The options of the {@code gm} transport ({@code --transport-option name=value}, or
 * {@link org.portals3j.transport.EndpointConfig#options()}). Every rank of a job must use the same values: the
 * credits and size classes of one rank are the receive buffers of the others. See the package documentation for
 * what each one does.
 */
public final class GmOptions {
    /** libfabric provider: {@code tcp} (tcp;ofi_rxm, default), {@code shm}, {@code udp} (udp;ofi_rxd), {@code net}. */
    public static final String PROVIDER = "gm.provider";
    /**
     * The system property that gives the provider when {@link #PROVIDER} is not set (jobs that pass no options,
     * such as the conformance kit's).
     */
    public static final String PROVIDER_PROPERTY = "portals3j.gm.provider";
    /** The address to bind (default: the one the rendezvous was reached from, else 127.0.0.1; shm ignores it). */
    public static final String ADDRESS = "gm.address";
    /** The GM port id (0..7) to try first; the next free one is taken if it is busy (default 2). */
    public static final String PORT = "gm.port";
    /** The largest payload sent eagerly, through DMA-able buffers; larger ones go by RMA (default 8192). */
    public static final String EAGER_THRESHOLD = "gm.eagerThreshold";
    /** Data messages a rank may have in a peer's receive buffers at once (default 8). */
    public static final String CREDITS = "gm.credits";
    /** Registrations of native payload memory kept for reuse (default 64). */
    public static final String REGISTRATION_CACHE = "gm.registrationCache";
    /**
     * A send the peer's library does not take within this time fails and the peer counts as failed (default 10000:
     * the peer's progress thread may be held up by a handler callback or a loaded machine).
     */
    public static final String ACK_TIMEOUT_MILLIS = "gm.ackTimeoutMillis";
    /** A peer silent for three such periods counts as failed (default 1000; 0: never). */
    public static final String KEEPALIVE_MILLIS = "gm.keepaliveMillis";
    /**
     * Whether libgm acknowledges every message as well (GMX_STRICT), or completes it at local completion while the
     * peer answers keep-alives ({@code false}, the default). Either way a send completes only on the receiver's FIN,
     * once the payload is where the receiver's handler wanted it, and a failed peer is found by keep-alives; strict
     * mode adds a message per message (one more on the path of every reply) and makes libgm's ack timeout notice a
     * dead peer too. With keep-alives off libgm acknowledges every message whatever this says.
     */
    public static final String STRICT = "gm.strict";
    /** How long {@code start} waits for every peer to publish its address (default 30000). */
    public static final String RENDEZVOUS_TIMEOUT_MILLIS = "gm.rendezvousTimeoutMillis";

    private GmOptions() {
    }

    /** The parsed options. */
    public record Settings(String provider, String address, int port, long eagerThreshold, int credits,
                           int registrationCache, int ackTimeoutMillis, int keepaliveMillis,
                           int rendezvousTimeoutMillis, boolean strict) {
    }

    /**
     * Parses {@code options}; unknown {@code gm.*} names are errors.
     *
     * @throws TransportException naming the bad option and what it takes
     */
    public static Settings parse(Map<String, String> options) throws TransportException {
        for (String name : options.keySet()) {
            if (name.startsWith("gm.") && !isKnown(name)) {
                throw new TransportException("unknown option " + name + "; the gm transport takes " + PROVIDER + ", "
                        + ADDRESS + ", " + PORT + ", " + EAGER_THRESHOLD + ", " + CREDITS + ", " + REGISTRATION_CACHE
                        + ", " + ACK_TIMEOUT_MILLIS + ", " + KEEPALIVE_MILLIS + ", " + RENDEZVOUS_TIMEOUT_MILLIS + ", "
                        + STRICT);
            }
        }
        String provider = options.getOrDefault(PROVIDER, System.getProperty(PROVIDER_PROPERTY, "tcp"))
                .trim().toLowerCase(Locale.ROOT);
        if (!provider.equals("tcp") && !provider.equals("shm") && !provider.equals("udp") && !provider.equals("net")) {
            throw new TransportException(PROVIDER + "=" + provider + " is not a provider gm runs on; choose tcp, shm, "
                    + "udp or net");
        }
        return new Settings(provider, options.getOrDefault(ADDRESS, ""),
                (int) number(options, PORT, 2, 0, 7),
                number(options, EAGER_THRESHOLD, 8192, 0, 1 << 20),
                (int) number(options, CREDITS, 8, 1, 256),
                (int) number(options, REGISTRATION_CACHE, 64, 1, 4096),
                (int) number(options, ACK_TIMEOUT_MILLIS, 10_000, 1, 3_600_000),
                (int) number(options, KEEPALIVE_MILLIS, 1000, 0, 3_600_000),
                (int) number(options, RENDEZVOUS_TIMEOUT_MILLIS, 30_000, 1, 3_600_000),
                bool(options, STRICT, false));
    }

    private static boolean isKnown(String name) {
        return switch (name) {
            case PROVIDER, ADDRESS, PORT, EAGER_THRESHOLD, CREDITS, REGISTRATION_CACHE, ACK_TIMEOUT_MILLIS,
                 KEEPALIVE_MILLIS, RENDEZVOUS_TIMEOUT_MILLIS, STRICT -> true;
            default -> false;
        };
    }

    private static boolean bool(Map<String, String> options, String name, boolean fallback)
            throws TransportException {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new TransportException(name + "=" + text + " is not true or false");
        };
    }

    private static long number(Map<String, String> options, String name, long fallback, long min, long max)
            throws TransportException {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new TransportException(name + "=" + text + " is not a number in [" + min + ", " + max + "]");
    }
}
