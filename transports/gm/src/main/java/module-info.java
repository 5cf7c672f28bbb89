/**
 * The {@code gm} transport: GM-style messaging over libfabric (libgm), bound through FFM. Applications see only its
 * options ({@code org.portals3j.transport.gm.GmOptions}); the layers above find it through
 * {@link java.util.ServiceLoader} and use it through the transport SPI. Its {@code internal} packages (the native
 * boundary, the wire protocol, the endpoint) are not exported.
 */
module org.portals3j.transport.gm {
    requires org.portals3j.transport;
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.transport.gm;

    provides org.portals3j.transport.TransportProvider with org.portals3j.transport.gm.GmTransportProvider;
}
