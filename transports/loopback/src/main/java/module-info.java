/**
 * The {@code loopback} transport, the example of {@code docs/writing-a-transport.md}. It exports nothing: the layers
 * above find it through {@link java.util.ServiceLoader} and use it only through the transport SPI.
 */
module org.portals3j.transport.loopback {
    requires org.portals3j.transport;
    requires static org.checkerframework.checker.qual;

    provides org.portals3j.transport.TransportProvider
            with org.portals3j.transport.loopback.LoopbackTransportProvider;
}
