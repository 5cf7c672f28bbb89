/**
 * The transport SPI ({@code org.portals3j.transport}: what a transport implements and what the layers above use)
 * and the job runtime ({@code org.portals3j.runtime}: how a job's ranks start and meet). Transports are found
 * through {@link java.util.ServiceLoader}: on the module path by their {@code provides}, on the class path by
 * {@code META-INF/services}. The shared internal helpers are exported only to the Portals3J modules that use them.
 */
@SuppressWarnings("module") // the modules the internal package is exported to are built after this one
module org.portals3j.transport {
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.transport;
    exports org.portals3j.runtime;
    exports org.portals3j.transport.internal to
            org.portals3j.transport.inmem,
            org.portals3j.transport.udp,
            org.portals3j.transport.gm,
            org.portals3j.portals,
            org.portals3j.isotach;

    uses org.portals3j.transport.TransportProvider;
}
