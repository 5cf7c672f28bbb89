package org.portals3j.portals;

/** What {@link Portals#niInit} gives back: {@code PtlNIInit}'s {@code handle} and {@code actual} out-arguments. */
public record NiInit(NiHandle handle, NiLimits actual) {
}
