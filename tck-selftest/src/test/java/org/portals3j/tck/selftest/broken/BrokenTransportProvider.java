package org.portals3j.tck.selftest.broken;

import java.util.Set;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;

/**
 * A provider of a deliberately broken transport: it opens a real {@code inmem} endpoint through the SPI and
 * wraps it in a {@link BrokenTransport} that breaks one promise of the transport contract (package
 * documentation of {@code org.portals3j.transport}: reliable, exactly-once, per-peer FIFO delivery).
 * Registered in {@code META-INF/services} of the self-test's class path only: these transports exist to show
 * that the kit fails them.
 */
public abstract class BrokenTransportProvider implements TransportProvider {
    /** The transport every broken one wraps. */
    static final String NETWORK = "inmem";

    private final String name;
    private final String description;

    protected BrokenTransportProvider(String name, String description) {
        this.name = name;
        this.description = description;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description + " (a broken wrapper of " + NETWORK + ", for the kit's self-test)";
    }

    /** What its endpoints have ({@link BrokenTransport#capabilities()}). */
    @Override
    public final Set<TransportCapability> capabilities() {
        return BrokenTransport.CAPABILITIES;
    }

    @Override
    public final Availability availability() {
        return Transports.find(NETWORK).map(TransportProvider::availability)
                .orElseGet(() -> Availability.no("transport '" + NETWORK + "' is not on the class path"));
    }

    @Override
    public final Transport open(EndpointConfig config) throws TransportException {
        Transport network = Transports.require(NETWORK).open(config);
        return wrap(network, config);
    }

    /** The broken endpoint of {@code config}'s rank over {@code network}, that rank's real endpoint. */
    protected abstract Transport wrap(Transport network, EndpointConfig config);
}
