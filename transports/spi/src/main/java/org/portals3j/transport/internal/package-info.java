/**
 * Pieces the runtime modules (the Isotach layer, the transports, the Portals engine) share that are not part of the
 * transport SPI: applications and third-party transports should not depend on them.
 */
package org.portals3j.transport.internal;
