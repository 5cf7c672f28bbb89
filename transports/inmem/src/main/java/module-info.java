/**
 * The {@code inmem} transport: every rank of a job in one JVM. It exports nothing: the layers above find it
 * through {@link java.util.ServiceLoader} ({@code provides} here on the module path, {@code META-INF/services} on
 * the class path) and use it only through the transport SPI.
 */
module org.portals3j.transport.inmem {
    requires org.portals3j.transport;
    requires static org.checkerframework.checker.qual;

    provides org.portals3j.transport.TransportProvider with org.portals3j.transport.inmem.InMemoryTransportProvider;
}
