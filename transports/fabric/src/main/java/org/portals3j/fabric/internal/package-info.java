/**
 * The binding's native-access boundary (not exported): {@link org.portals3j.fabric.internal.NativeFabric}
 * holds every method handle of libfabric.so.1 and of the glue library libfabric-java.so, and
 * {@link org.portals3j.fabric.internal.Structs} every struct layout; nothing outside this package touches
 * either. The glue library ({@code src/main/c/fabric_java.c}) exists because libfabric's data path is
 * static inline (gm-libfabric.md section 0 item 3, section 2.1).
 */
package org.portals3j.fabric.internal;
