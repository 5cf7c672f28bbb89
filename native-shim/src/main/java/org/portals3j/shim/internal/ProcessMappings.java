package org.portals3j.shim.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The memory mappings of this process ({@code /proc/self/maps}), for checking an address another process sent
 * before it is used: whether a range lies in mappings with given permissions, and whether an address is code of
 * an object loaded from a file (the program or a shared library) other than the JVM's own.
 *
 * <p>A snapshot is kept and read again when a lookup finds no mapping that allows it, so an address the
 * program has just mapped is found and lookups of known memory read no file. A mapping the program has removed
 * since the snapshot can still be found in it: removing memory a peer was told of is the program's own race
 * (as freeing a buffer a transfer still uses). Thread-safe.
 */
public final class ProcessMappings {
    /** Readable, writable, executable, backed by a file, part of the JVM (under {@code java.home}). */
    public static final int READ = 1;
    public static final int WRITE = 2;
    public static final int EXEC = 4;
    public static final int FILE = 8;
    private static final int JVM = 16;

    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final ProcessMappings SELF = new ProcessMappings();

    /** One snapshot: sorted, non-overlapping ranges [start, end) and their flags. */
    private record Snapshot(long[] starts, long[] ends, int[] flags) {
    }

    private volatile Snapshot snapshot = new Snapshot(new long[0], new long[0], new int[0]);

    private ProcessMappings() {
    }

    /** The mappings of this process. */
    public static ProcessMappings self() {
        return SELF;
    }

    /**
     * Whether every byte of {@code [address, address + length)} lies in mappings that all have {@code flags}
     * (at least one byte is checked when {@code length} is 0).
     */
    public boolean covers(long address, long length, int flags) {
        if (address == 0 || length < 0 || address + Math.max(length, 1) < address) {
            return false;
        }
        return covers(snapshot, address, length, flags) || covers(refresh(), address, length, flags);
    }

    /** Whether {@code address} is executable code of a file-backed object that is not part of the JVM. */
    public boolean isProgramCode(long address) {
        return isProgramCode(snapshot, address) || isProgramCode(refresh(), address);
    }

    private static boolean isProgramCode(Snapshot s, long address) {
        int i = find(s, address);
        return i >= 0 && (s.flags()[i] & (EXEC | FILE | JVM)) == (EXEC | FILE);
    }

    private static boolean covers(Snapshot s, long address, long length, int flags) {
        long end = address + Math.max(length, 1);
        long at = address;
        int i = find(s, at);
        while (i >= 0 && (s.flags()[i] & flags) == flags) {
            if (Long.compareUnsigned(s.ends()[i], end) >= 0) {
                return true;
            }
            at = s.ends()[i];
            i = i + 1 < s.starts().length && s.starts()[i + 1] == at ? i + 1 : -1;
        }
        return false;
    }

    /** The index of the mapping holding {@code address}, or -1. */
    private static int find(Snapshot s, long address) {
        long[] starts = s.starts();
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return hi >= 0 && Long.compareUnsigned(address, s.ends()[hi]) < 0 ? hi : -1;
    }

    private synchronized Snapshot refresh() {
        List<String> lines;
        try {
            lines = Files.readAllLines(MAPS, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return snapshot; // no /proc: nothing more can be known, so nothing more is allowed
        }
        String javaHome = System.getProperty("java.home", "/nonexistent") + "/";
        long[] starts = new long[lines.size()];
        long[] ends = new long[lines.size()];
        int[] flags = new int[lines.size()];
        int n = 0;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+", 6);
            if (f.length < 5) {
                continue;
            }
            int dash = f[0].indexOf('-');
            if (dash < 0 || f[1].length() < 3) {
                continue;
            }
            starts[n] = Long.parseUnsignedLong(f[0].substring(0, dash), 16);
            ends[n] = Long.parseUnsignedLong(f[0].substring(dash + 1), 16);
            int fl = (f[1].charAt(0) == 'r' ? READ : 0) | (f[1].charAt(1) == 'w' ? WRITE : 0)
                    | (f[1].charAt(2) == 'x' ? EXEC : 0);
            String path = f.length == 6 ? f[5] : "";
            if (path.startsWith("/")) {
                fl |= FILE;
                if (path.startsWith(javaHome)) {
                    fl |= JVM;
                }
            }
            flags[n++] = fl;
        }
        Snapshot s = new Snapshot(Arrays.copyOf(starts, n), Arrays.copyOf(ends, n), Arrays.copyOf(flags, n));
        snapshot = s;
        return s;
    }
}
