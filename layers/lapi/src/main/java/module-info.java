/**
 * LAPI-style active messages ({@code org.portals3j.lapi}) on the public Portals 3.2 API. It reads no engine
 * internals: everything it does, a user of {@code org.portals3j.portals} could do.
 */
module org.portals3j.lapi {
    requires transitive org.portals3j.portals;
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.lapi;
}
