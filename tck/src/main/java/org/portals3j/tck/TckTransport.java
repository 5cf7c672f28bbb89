package org.portals3j.tck;

import java.time.Duration;
import java.util.Set;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;

/** Which transport the kit runs against, and how long it waits for things that take time on it. */
public final class TckTransport {
    /** The system property naming the transport. */
    public static final String PROPERTY = "portals3j.transport";
    /** The system property overriding {@link #patience()}, in milliseconds. */
    public static final String PATIENCE_PROPERTY = "portals3j.tck.patience";

    private TckTransport() {
    }

    /** The transport under test: {@code -Dportals3j.transport=NAME}, default {@code inmem}. */
    public static String name() {
        String name = System.getProperty(PROPERTY, "inmem").trim();
        return name.isEmpty() ? "inmem" : name;
    }

    /**
     * How long to wait for an event that must come: {@code -Dportals3j.tck.patience=MILLIS}, default 10 s.
     * Generous: CI machines are slow and shared.
     */
    public static Duration patience() {
        String millis = System.getProperty(PATIENCE_PROPERTY, "").trim();
        if (millis.isEmpty()) {
            return Duration.ofSeconds(10);
        }
        try {
            return Duration.ofMillis(Math.max(1, Long.parseLong(millis)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PATIENCE_PROPERTY + " must be a number of milliseconds, not '" + millis
                    + "'", e);
        }
    }

    /** What the transport under test advertises; empty when no provider of that name is on the class path. */
    public static Set<TransportCapability> capabilities() {
        return Transports.find(name()).map(TransportProvider::capabilities).orElse(Set.of());
    }

    /**
     * Whether the transport under test delivers inline ({@link TransportCapability#INLINE_DELIVERY}): the kit
     * asks the capability, never the name, so a third-party transport is judged by what it promises.
     */
    public static boolean deliversInline() {
        return capabilities().contains(TransportCapability.INLINE_DELIVERY);
    }

    /**
     * How long a whole run of traffic (many messages, many pulses) may take before the kit calls it stuck:
     * three times {@link #patience()}, so 30 s by default, and short when a self-test shortens the patience.
     */
    public static Duration trafficPatience() {
        return patience().multipliedBy(3);
    }

    /**
     * How long the kit lets a job start (open_net on every host) before it gives up on the test: starting is what
     * no assertion of the kit measures, so the bound is generous whatever the patience (at least 60 s): a
     * self-test that shortens the patience to make lost messages cheap must not fail a start on a loaded machine.
     */
    public static Duration startPatience() {
        Duration traffic = trafficPatience();
        Duration floor = Duration.ofSeconds(60);
        return traffic.compareTo(floor) > 0 ? traffic : floor;
    }

    /**
     * How long to watch for an event that must not come. A transport that delivers inline has done
     * everything it will do when a call returns; other transports get time.
     */
    public static Duration quietPeriod() {
        return deliversInline() ? Duration.ofMillis(5) : Duration.ofMillis(200);
    }
}
