package org.portals3j.tck;

import java.time.Duration;

/** Which transport the kit runs against, and how long it waits for things that take time on it. */
public final class TckTransport {
    /** The system property naming the transport. */
    public static final String PROPERTY = "portals3j.transport";

    private TckTransport() {
    }

    /** The transport under test: {@code -Dportals3j.transport=NAME}, default {@code inmem}. */
    public static String name() {
        String name = System.getProperty(PROPERTY, "inmem").trim();
        return name.isEmpty() ? "inmem" : name;
    }

    /** How long to wait for an event that must come. Generous: CI machines are slow and shared. */
    public static Duration patience() {
        return Duration.ofSeconds(10);
    }

    /**
     * How long to watch for an event that must not come. The in-memory transport delivers inline, so
     * everything that will happen has happened when a call returns; other transports get time.
     */
    public static Duration quietPeriod() {
        return name().equals("inmem") ? Duration.ofMillis(5) : Duration.ofMillis(200);
    }
}
