/**
 * The Portals wire messages (chapter 4, Portals 3.2 spec §3.12): put request, acknowledgement, get request and reply,
 * in one fixed little-endian layout with a version byte. Internal: not API.
 */
package org.portals3j.portals.internal.wire;
