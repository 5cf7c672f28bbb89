/**
 * The udp transport's native boundary: {@link org.portals3j.transport.udp.internal.nativeaccess.Libc}, the libc
 * socket calls bound through FFM, and the only class of the module that sees a downcall.
 */
package org.portals3j.transport.udp.internal.nativeaccess;
