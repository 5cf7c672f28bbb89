package org.portals3j.transport;

import java.util.Objects;

/**
 * Whether a transport can be used here. A transport that is not available says why, in words a user
 * can act on ("libfabric.so.1 not found: apt-get install libfabric1").
 */
public record Availability(boolean available, String reason) {

    public Availability {
        Objects.requireNonNull(reason, "reason");
    }

    public static Availability yes() {
        return new Availability(true, "available");
    }

    public static Availability no(String why) {
        return new Availability(false, why);
    }
}
