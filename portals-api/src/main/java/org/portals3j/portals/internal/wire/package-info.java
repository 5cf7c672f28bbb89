/**
 * The Portals wire messages (chapter 4, L13055): put request, acknowledgement, get request and reply,
 * in one fixed little-endian layout with a version byte. Internal: not API.
 */
package org.portals3j.portals.internal.wire;
