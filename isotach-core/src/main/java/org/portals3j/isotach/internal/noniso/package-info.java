/**
 * The Isotach report's non-Isotach protocols (noniso message passing, the noniso barrier, specific sender-based
 * flow control; digest §2.4, §2.5, §3.1) as one module the engine drives: {@link
 * org.portals3j.isotach.internal.noniso.NonisoLayer}. Frames of kinds 0x20-0x2F belong to it.
 */
package org.portals3j.isotach.internal.noniso;
