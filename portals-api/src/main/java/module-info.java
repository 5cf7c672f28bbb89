/**
 * The Portals 3.2 (and 3.3) API ({@code org.portals3j.portals}) and its engine, on the transport SPI, which it
 * re-exports (a library is created for a job's rank on a transport). The engine and the wire format are internal
 * and not exported; the conformance kit's white-box test of the wire format and the benchmarks read the wire
 * format from the class path.
 */
module org.portals3j.portals {
    requires transitive org.portals3j.transport;
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.portals;
}
