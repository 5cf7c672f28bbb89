package org.portals3j.isotach;

import java.util.Arrays;

/**
 * A range of Isotach shared memory: {@code words} 64-bit words at shared addresses {@code [base, base + words)},
 * with a copy on each host of {@code copyset} (the report's page copysets, read from a configuration file it
 * never wrote, Isotach report §6.2.5, pp. 41-45). A read goes to the nearest copy (the local one if this host holds
 * one, else the copy at the smallest logical distance, ties to the lowest id); a change goes to every copy
 * (Isotach report §3.4, pp. 14-18).
 */
public record SharedRegion(long base, int words, int[] copyset) {
    public SharedRegion {
        if (base < 0 || words <= 0 || base > Long.MAX_VALUE - words) {
            throw new IllegalArgumentException("shared region [" + base + ", +" + words + ") is not a valid range");
        }
        if (copyset.length == 0) {
            throw new IllegalArgumentException("shared region at " + base + " has an empty copyset");
        }
        copyset = copyset.clone();
        Arrays.sort(copyset);
        for (int i = 1; i < copyset.length; i++) {
            if (copyset[i] == copyset[i - 1]) {
                throw new IllegalArgumentException("shared region at " + base + " lists host " + copyset[i] + " twice");
            }
        }
    }

    @Override
    public int[] copyset() {
        return copyset.clone();
    }

    /** Whether {@code address} lies in this region. */
    public boolean contains(long address) {
        return address >= base && address - base < words;
    }

    /** Whether host {@code node} holds a copy. */
    public boolean hasCopy(int node) {
        return Arrays.binarySearch(copyset, node) >= 0;
    }

    @Override
    public boolean equals(@org.checkerframework.checker.nullness.qual.Nullable Object o) {
        return o instanceof SharedRegion r && r.base == base && r.words == words && Arrays.equals(r.copyset, copyset);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(base) * 31 + words * 17 + Arrays.hashCode(copyset);
    }

    @Override
    public String toString() {
        return "SharedRegion[" + base + ", +" + words + ", copyset " + Arrays.toString(copyset) + "]";
    }
}
