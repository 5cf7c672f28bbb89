/**
 * The udp endpoint: {@link org.portals3j.transport.udp.internal.endpoint.UdpEndpoint} (the transport, its
 * lifecycle) runs a protocol thread whose duty cycle ({@code ProtocolThread}) runs rounds of the {@code
 * ProtocolAgent}: a {@code DatagramReceiver} takes datagrams in, a {@code DatagramSender} sends data,
 * retransmissions, acknowledgements and heartbeats out. Built on the {@code wire}, {@code io} and {@code reliability}
 * packages; why it is built so: docs/udp-notes.md.
 */
package org.portals3j.transport.udp.internal.endpoint;
