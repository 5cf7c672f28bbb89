package org.portals3j.launcher.thirdparty;

import java.util.Set;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;

/**
 * A transport as a third party would ship it: registered only by the services file of a jar the tests
 * build (not on the launcher's class path as a service), so the launcher finds it through {@code -cp}
 * alone. It carries messages over {@code inmem}.
 */
public final class ThirdPartyTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return "thirdparty";
    }

    @Override
    public String description() {
        return "a test transport from a jar given with -cp (over inmem)";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return Set.of(TransportCapability.SINGLE_PROCESS);
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        return Transports.require("inmem").open(config);
    }
}
