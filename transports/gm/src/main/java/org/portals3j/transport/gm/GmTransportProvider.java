package org.portals3j.transport.gm;

import java.util.List;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.gm.internal.endpoint.GmEndpoint;
import org.portals3j.transport.gm.internal.nativeaccess.Libgm;

/**
 * Provider {@code gm}: GM-style messaging over libfabric through libgm (see the package documentation). Cheap to
 * construct; {@link #availability} loads the library and asks it whether the default provider (tcp;ofi_rxm) works.
 */
public final class GmTransportProvider implements TransportProvider {
    public static final String NAME = GmEndpoint.NAME;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "GM-style messaging over libfabric (libgm, FFM): eager through DMA buffers, RMA reads for large "
                + "payloads; gm.provider=tcp|shm|udp|net";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return GmEndpoint.CAPABILITIES;
    }

    @Override
    public Availability availability() {
        return availability("tcp");
    }

    /** Each libfabric provider gm runs over: whether it works here, and its known limits. */
    @Override
    public List<String> notes() {
        return ProviderNotes.lines(GmTransportProvider::availability);
    }

    /** Whether the gm transport can run here over libfabric provider {@code provider}, and if not, why. */
    public static Availability availability(String provider) {
        try {
            @Nullable String why = Libgm.load().providerUnavailable(provider);
            return why == null ? Availability.yes() : Availability.no(why);
        } catch (IllegalStateException e) {
            return Availability.no(String.valueOf(e.getMessage()));
        }
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        return GmEndpoint.open(config, GmOptions.parse(config.options()));
    }
}
