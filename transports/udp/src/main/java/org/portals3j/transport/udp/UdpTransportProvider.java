package org.portals3j.transport.udp;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;
import org.portals3j.transport.udp.internal.wire.Crc32cOnly;

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

    /** How datagrams are protected under this process's {@code PORTALS_TRANSPORT_OPTIONS}, for {@code portals info}. */
    @Override
    public List<String> notes() {
        return notes(System.getenv());
    }

    /** {@link #notes()} for the environment {@code env}. */
    static List<String> notes(Map<String, String> env) {
        String variable = JobRuntime.TRANSPORT_OPTIONS;
        UdpOptions.Settings settings;
        try {
            settings = UdpOptions.parse(JobRuntime.options(env.getOrDefault(variable, "")));
        } catch (TransportException e) {
            return List.of(variable + " is refused: " + e.getMessage());
        }
        if (settings.mac().equals(Crc32cOnly.NAME)) {
            return List.of("UNAUTHENTICATED: " + UdpOptions.MAC + "=" + Crc32cOnly.NAME + " (" + variable + "):"
                            + " datagrams carry a CRC32C against corruption and no MAC;",
                    "anyone who can send to the job's ports can inject, alter or replay datagrams into the job:"
                            + " for private, trusted networks only");
        }
        return List.of("datagrams authenticated with the job key: " + UdpOptions.MAC + "=" + settings.mac()
                + " (" + variable + ")");
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        return UdpEndpoint.open(config, UdpOptions.parse(config.options()));
    }
}
