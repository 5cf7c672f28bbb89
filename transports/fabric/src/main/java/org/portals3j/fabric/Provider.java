package org.portals3j.fabric;

import java.util.Set;

/**
 * One libfabric provider as {@code fi_info -l} lists it: its name, its version ({@code major.minor} of
 * {@code prov_version}) and the endpoint types of the {@code fi_info} entries it tops (for a utility provider such
 * as {@code ofi_rxm}, those of the stacks {@code tcp;ofi_rxm}, {@code net;ofi_rxm}); empty if it gives none here.
 */
public record Provider(String name, String version, Set<EndpointType> endpointTypes) {
    public Provider {
        endpointTypes = Set.copyOf(endpointTypes);
    }
}
