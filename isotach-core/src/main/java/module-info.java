/**
 * The Isotach messaging layer ({@code org.portals3j.isotach}: the Appendix A functions and their types) and its
 * engine (token manager, switch interface units, host modules), on the transport SPI, which it re-exports (a net
 * is created for a job). The engine is internal and not exported.
 */
module org.portals3j.isotach {
    requires transitive org.portals3j.transport;
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.isotach;
}
