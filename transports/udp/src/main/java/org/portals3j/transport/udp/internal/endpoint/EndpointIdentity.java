package org.portals3j.transport.udp.internal.endpoint;

/**
 * Who this endpoint is on the wire: its rank in a job of {@code size} ranks, the job's tag and this endpoint's
 * incarnation id, which every datagram it sends carries and every datagram it accepts must name.
 */
record EndpointIdentity(int rank, int size, int jobTag, long incarnation) {
}
