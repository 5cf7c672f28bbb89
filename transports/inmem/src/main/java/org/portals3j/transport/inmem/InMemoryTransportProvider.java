package org.portals3j.transport.inmem;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;

/** Provider {@code inmem}: a job of N ranks inside one JVM. */
public final class InMemoryTransportProvider implements TransportProvider {

    public static final String NAME = "inmem";

    /** What every endpoint of this transport offers. */
    static final Set<TransportCapability> CAPABILITIES = Collections.unmodifiableSet(EnumSet.of(
            TransportCapability.SINGLE_PROCESS, TransportCapability.SINGLE_COPY,
            TransportCapability.INLINE_DELIVERY, TransportCapability.REPORTS_POLLERS_GONE));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "all ranks in one JVM; the payload is copied once, from the source memory straight into the target";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        return InMemoryFabric.join(config.job()).open(config.rank());
    }
}
