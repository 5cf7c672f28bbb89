package org.portals3j.transport.udp;

import java.util.Set;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/** Provider {@code udp}: reliable, authenticated messaging over UDP datagrams. See the package documentation. */
public final class UdpTransportProvider implements TransportProvider {

    public static final String NAME = "udp";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "UDP datagrams made reliable (sequence numbers, SACK, RTO), authenticated with the job key; "
                + "processes on one or several hosts";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return UdpEndpoint.CAPABILITIES;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        return UdpEndpoint.open(config, UdpOptions.parse(config.options()));
    }
}
