package org.portals3j.launcher.thirdparty;

import java.util.Set;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;

/** A transport whose native library is missing here: it must be listed as not available, with why. */
public final class AbsentLibraryTransportProvider implements TransportProvider {
    /** What it says when asked. */
    public static final String REASON = "libexample-fabric.so.1 not found: apt-get install libexample-fabric1";

    @Override
    public String name() {
        return "absent-lib";
    }

    @Override
    public String description() {
        return "a test transport whose native library is not installed";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return Set.of(TransportCapability.MULTI_PROCESS, TransportCapability.NATIVE);
    }

    @Override
    public Availability availability() {
        return Availability.no(REASON);
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        throw new TransportException("absent-lib is not available: " + REASON);
    }
}
