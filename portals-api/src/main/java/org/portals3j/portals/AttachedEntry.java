package org.portals3j.portals;

/** What {@link Portals#meAttachAny} gives back: the portal index it chose and the new entry's handle. */
public record AttachedEntry(int portalIndex, MeHandle handle) {
}
