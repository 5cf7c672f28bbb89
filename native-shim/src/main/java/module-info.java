/**
 * The Java side of libportals3: the Portals C API served by the Java engine through FFM upcalls. libportals3 starts
 * its JVM on the class path, with {@code --enable-native-access=ALL-UNNAMED}; on the module path this module needs
 * {@code --enable-native-access=org.portals3j.shim}. Only {@code ShimBootstrap}, the class libportals3 calls, is
 * exported; the upcalls and the native boundary are internal.
 */
module org.portals3j.shim {
    requires org.portals3j.portals;
    requires org.portals3j.transport;
    requires org.portals3j.lapi;
    requires static org.checkerframework.checker.qual;

    exports org.portals3j.shim;
}
