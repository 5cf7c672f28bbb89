package org.portals3j.transport;

import java.util.List;
import java.util.Set;

/**
 * A kind of network, found through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.portals3j.transport.TransportProvider}).
 *
 * <p>Implementations must have a public no-argument constructor and must be cheap to construct:
 * {@link Transports} instantiates every provider on the class path to list them.
 */
public interface TransportProvider {

    /** The short name users select it by, e.g. {@code inmem}, {@code udp}, {@code gm}. */
    String name();

    /** One line for {@code portals info}. */
    String description();

    /** What this transport offers beyond the baseline contract of the package. */
    Set<TransportCapability> capabilities();

    /** Whether it can be used on this machine now, and if not, why. */
    Availability availability();

    /**
     * What users should know beyond {@link #availability()}, one line each, for {@code portals info}: for example
     * which underlying networks work here and their known limits. None by default.
     */
    default List<String> notes() {
        return List.of();
    }

    /**
     * Opens the endpoint of one rank of a job.
     *
     * @throws TransportException when the endpoint cannot be opened (the message says what to do)
     */
    Transport open(EndpointConfig config) throws TransportException;
}
