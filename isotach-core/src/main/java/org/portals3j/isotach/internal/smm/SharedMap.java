package org.portals3j.isotach.internal.smm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedRegion;

/**
 * The report's {@code shmem_map} seen from one host (Isotach report §3.4.1, pp. 14-18; §6.2.8, pp. 41-45): which shared
 * addresses exist, who holds a copy of each, which copy is nearest; immutable, lookups allocation-free (copysets from
 * the configuration's regions).
 */
public final class SharedMap {
    private final int me;
    private final int hosts;
    private final long[] base;
    private final int[] words;
    private final int[][] copyset;
    private final boolean[] local;
    private final int[] nearest;
    private final int maxCopies;

    /**
     * @throws IllegalArgumentException if {@code me} is not a host of the job, two regions overlap (an address
     *         would have two copysets), or a copyset names a host outside {@code [0, hosts)}
     */
    public SharedMap(int me, int hosts, IsotachConfig config) {
        if (hosts < 1 || me < 0 || me >= hosts) {
            throw new IllegalArgumentException("host " + me + " is not a host of a job of " + hosts);
        }
        this.me = me;
        this.hosts = hosts;
        List<SharedRegion> regions = new ArrayList<>(config.sharedRegions(hosts));
        regions.sort(Comparator.comparingLong(SharedRegion::base));
        int n = regions.size();
        this.base = new long[n];
        this.words = new int[n];
        this.copyset = new int[n][];
        this.local = new boolean[n];
        this.nearest = new int[n];
        int most = 0;
        for (int r = 0; r < n; r++) {
            SharedRegion region = regions.get(r);
            base[r] = region.base();
            words[r] = region.words();
            copyset[r] = region.copyset(); // sorted ascending, no duplicates (SharedRegion's invariant)
            if (r > 0 && base[r] - base[r - 1] < words[r - 1]) {
                throw new IllegalArgumentException(regions.get(r - 1) + " overlaps " + region
                        + ": an address must have exactly one copyset");
            }
            for (int h : copyset[r]) {
                if (h < 0 || h >= hosts) {
                    throw new IllegalArgumentException(region + " names host " + h + ", not a host of a job of "
                            + hosts);
                }
            }
            local[r] = region.hasCopy(me);
            nearest[r] = nearestOf(config, copyset[r]);
            most = Math.max(most, copyset[r].length);
        }
        this.maxCopies = most;
    }

    /** This host if it holds a copy, else the copy at the smallest logical distance, ties to the lowest id. */
    private int nearestOf(IsotachConfig config, int[] set) {
        int best = -1;
        int bestDistance = Integer.MAX_VALUE;
        for (int h : set) { // ascending, so a strict < keeps the lowest id among equals
            int d = h == me ? -1 : config.distance(me, h);
            if (d < bestDistance) {
                best = h;
                bestDistance = d;
            }
        }
        return best;
    }

    /** The host this map is seen from. */
    public int me() {
        return me;
    }

    /** Hosts in the job. */
    public int hosts() {
        return hosts;
    }

    /** Number of regions. */
    public int regions() {
        return base.length;
    }

    /** The largest copyset: an {@code int[]} this long always holds {@link #copies(long, int[])}'s answer. */
    public int maxCopies() {
        return maxCopies;
    }

    /** The index of the region holding {@code address}, or -1 if the address is not shared memory. */
    public int regionOf(long address) {
        int lo = 0;
        int hi = base.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (address < base[mid]) {
                hi = mid - 1;
            } else if (address - base[mid] >= words[mid]) {
                lo = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** First address of region {@code r}. */
    public long base(int r) {
        return base[r];
    }

    /** Words in region {@code r}. */
    public int words(int r) {
        return words[r];
    }

    /** Whether this host holds a copy of region {@code r}. */
    public boolean isLocal(int r) {
        return local[r];
    }

    /** Whether host {@code h} holds a copy of region {@code r}. */
    public boolean hasCopy(int r, int h) {
        for (int c : copyset[r]) {
            if (c == h) {
                return true;
            }
        }
        return false;
    }

    /** The read target of region {@code r} from this host (Isotach report §3.4, pp. 14-18). */
    public int nearest(int r) {
        return nearest[r];
    }

    /**
     * The hosts holding a copy of {@code address}, ascending, written to {@code out} (I-087: a change sends one
     * sRef to each).
     *
     * @return how many, or -1 if the address is not shared memory
     * @throws IllegalArgumentException if {@code out} is shorter than the copyset ({@link #maxCopies()} or the
     *         host count always suffices)
     */
    public int copies(long address, int[] out) {
        int r = regionOf(address);
        if (r < 0) {
            return -1;
        }
        int[] set = copyset[r];
        if (out.length < set.length) {
            throw new IllegalArgumentException("copyset of address " + address + " has " + set.length
                    + " hosts; the output array holds " + out.length);
        }
        System.arraycopy(set, 0, out, 0, set.length);
        return set.length;
    }

    /** The host a read of {@code address} goes to (I-087), or -1 if the address is not shared memory. */
    public int nearestCopy(long address) {
        int r = regionOf(address);
        return r < 0 ? -1 : nearest[r];
    }
}
