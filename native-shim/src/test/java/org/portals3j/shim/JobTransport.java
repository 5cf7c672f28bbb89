package org.portals3j.shim;

import org.junit.jupiter.api.Assumptions;
import org.portals3j.transport.Availability;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;

/**
 * A transport a C program's job runs on, with the options every rank gets ({@code PORTALS_TRANSPORT} and
 * {@code PORTALS_TRANSPORT_OPTIONS}): udp, and gm over the libfabric providers that connect processes
 * (tcp;ofi_rxm, and shm between processes of one host).
 */
enum JobTransport {
    UDP("udp", ""),
    GM_TCP("gm", "gm.provider=tcp"),
    GM_SHM("gm", "gm.provider=shm");

    private final String transportName;
    private final String options;

    JobTransport(String transportName, String options) {
        this.transportName = transportName;
        this.options = options;
    }

    /** The transport's name, as {@code portals run --transport} takes it. */
    String transportName() {
        return transportName;
    }

    /** The transport options, as {@code PORTALS_TRANSPORT_OPTIONS} carries them. */
    String options() {
        return options;
    }

    /**
     * Skips the test, saying why, unless this transport runs here. For gm that is its provider's own answer (libgm
     * loads, libfabric is installed and tcp;ofi_rxm works); shm is part of every libfabric 1.17 build, so where
     * tcp works a failure over shm is the program's or the transport's, not a missing package.
     */
    void assumeAvailable() {
        TransportProvider provider = Transports.find(transportName).orElseThrow(() -> new AssertionError(
                "transport " + transportName + " is not on native-shim's class path: see its pom"));
        Availability a = provider.availability();
        Assumptions.assumeTrue(a.available(), transportName + " is not available here: " + a.reason());
    }
}
