package org.portals3j.fabric.internal;

/**
 * The attributes of one {@code fi_info} entry that the public {@code FabricInfo} exposes, copied out of native
 * memory by {@link Structs#snapshot}; raw libfabric values (enums as their C numbers).
 */
public record InfoSnapshot(String provider, int providerVersion, String fabricName, String domainName, long caps,
        long mode, int addressFormat, int endpointType, long maxMessageSize, long memTagFormat, long injectSize,
        long txSize, long txMessageOrder, long rxSize, int mrMode, long mrKeySize, long cqDataSize, int threading,
        int controlProgress, int dataProgress) {
}
