/**
 * libfabric-java: a Java binding of libfabric 1.x over FFM ({@code org.portals3j.fabric}). The native-access
 * boundary, {@code org.portals3j.fabric.internal}, is exported to no one. Run with
 * {@code --enable-native-access=org.portals3j.fabric} (module path) or {@code ALL-UNNAMED} (class path).
 */
module org.portals3j.fabric {
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.fabric;
}
