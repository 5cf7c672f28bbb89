/**
 * The {@code udp} transport: reliable, authenticated datagrams. Applications see only its options
 * ({@code org.portals3j.transport.udp.UdpOptions}: the names given to {@code --transport-option}); the layers above
 * find it through {@link java.util.ServiceLoader} ({@code provides} here on the module path,
 * {@code META-INF/services} on the class path) and use it through the transport SPI. Its {@code internal} layers
 * (wire, io, reliability, endpoint) are not exported: the benchmarks that drive an endpoint directly run on the
 * class path.
 */
module org.portals3j.transport.udp {
    requires org.portals3j.transport;
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.transport.udp;

    provides org.portals3j.transport.TransportProvider with org.portals3j.transport.udp.UdpTransportProvider;
}
