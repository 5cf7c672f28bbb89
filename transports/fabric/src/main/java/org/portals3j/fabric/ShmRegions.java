package org.portals3j.fabric;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Names for shm endpoints that no other process's region can hold, and the removal of this binding's regions whose
 * owner is provably gone (the choice is in the package documentation).
 */
final class ShmRegions {
    /** Where the shm provider's regions live: {@code shm_open}'s directory on Linux. */
    static final Path DIRECTORY = Path.of("/dev/shm");
    /** The start of every region name of this binding. */
    static final String PREFIX = "fabric-";

    /** {@link #startTime}: there is no such process. */
    static final long GONE = -1;
    /** {@link #startTime}: {@code /proc} cannot tell. */
    static final long UNKNOWN = -2;

    private static final int MAX_TRIES = 1000;
    private static final Pattern SWEPT = Pattern.compile(
            "fabric-[0-9a-f]{1,16}-[0-9a-f]{1,8}-[0-9a-f]{1,16}-[0-9a-f]{1,8}");
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final long NAMESPACE = namespace();
    private static final long START = startTime("self");
    /** With /proc: "fabric-NS-PID-START-" (hex); without: "fabric-rWORD-PID-0-", which no sweep removes. */
    private static final String OWN = NAMESPACE >= 0 && START >= 0
            ? PREFIX + hex(NAMESPACE) + "-" + hex(ProcessHandle.current().pid()) + "-" + hex(START) + "-"
            : PREFIX + "r" + hex(new SecureRandom().nextLong()) + "-" + hex(ProcessHandle.current().pid()) + "-0-";

    private ShmRegions() {
    }

    private static String hex(long value) {
        return Long.toHexString(value);
    }

    /** The inode of this process's pid namespace ({@code /proc/self/ns/pid}), or -1 when it cannot be read. */
    static long namespace() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            if (link.startsWith("pid:[") && link.endsWith("]")) {
                return Long.parseLong(link.substring(5, link.length() - 1));
            }
            return -1;
        } catch (IOException | NumberFormatException | UnsupportedOperationException e) {
            return -1;
        }
    }

    /**
     * Field 22 of {@code /proc/PROC/stat} ({@code proc} a pid or "self"): the start time in clock ticks since boot,
     * {@link #GONE} when there is no such process, {@link #UNKNOWN} when it cannot be read.
     */
    static long startTime(String proc) {
        String text;
        try {
            text = Files.readString(Path.of("/proc", proc, "stat"), StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            return GONE;
        } catch (IOException e) {
            return UNKNOWN;
        }
        int after = text.lastIndexOf(')'); // the command name may hold spaces and parentheses
        if (after < 0) {
            return UNKNOWN;
        }
        String[] fields = text.substring(after + 1).trim().split(" "); // fields[0] is field 3
        try {
            return fields.length > 19 ? Long.parseLong(fields[19]) : UNKNOWN;
        } catch (NumberFormatException e) {
            return UNKNOWN;
        }
    }

    /** The name {@link #name()} tries next. */
    static String nextName() {
        return OWN + Integer.toHexString(NEXT.get());
    }

    /** A fresh region name of this process, skipping names whose file exists (after 1000, fi_enable says so). */
    static String name() {
        for (int tries = 1;; tries++) {
            String name = OWN + Integer.toHexString(NEXT.getAndIncrement());
            if (tries >= MAX_TRIES || Files.notExists(DIRECTORY.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
                return name;
            }
        }
    }

    /**
     * Removes each region of this binding's form, of this pid namespace and this user, whose owner has no
     * {@code /proc} entry or another start time; leaves every other file alone. Does nothing without {@code /proc}.
     */
    static void sweep() {
        if (NAMESPACE < 0 || START < 0) {
            return;
        }
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(DIRECTORY, PREFIX + "*")) {
            long self = effectiveUid();
            for (Path region : dir) {
                String name = String.valueOf(region.getFileName());
                String[] f = name.split("-"); // "fabric", NS, PID, START, N
                if (SWEPT.matcher(name).matches() && Long.parseUnsignedLong(f[1], 16) == NAMESPACE) {
                    removeIfOrphaned(region, self, Long.parseLong(f[2], 16), Long.parseUnsignedLong(f[3], 16));
                }
            }
        } catch (IOException | DirectoryIteratorException | NumberFormatException e) {
            return; // no /dev/shm to list, or no user id: nothing to sweep
        }
    }

    /** The effective user id: the second number of {@code /proc/self/status}'s "Uid:" line. */
    static long effectiveUid() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.ISO_8859_1)) {
            String[] ids = line.split("\\s+");
            if (ids.length > 2 && ids[0].equals("Uid:")) {
                return Long.parseLong(ids[2]);
            }
        }
        throw new IOException("/proc/self/status has no Uid: line");
    }

    private static void removeIfOrphaned(Path region, long self, long pid, long start) {
        try {
            if (pid == 0 || pid > Integer.MAX_VALUE || !Files.isRegularFile(region, LinkOption.NOFOLLOW_LINKS)
                    || !(Files.getAttribute(region, "unix:uid", LinkOption.NOFOLLOW_LINKS) instanceof Integer uid
                            && uid == self)) {
                return;
            }
            long owner = startTime(Long.toString(pid));
            if (owner == GONE || (owner >= 0 && owner != start)) {
                Files.deleteIfExists(region); // gone already: its owner or another sweep removed it first
            }
        } catch (IOException e) {
            return; // a region that cannot be read or removed is left; fi_enable names it if it is in the way
        }
    }
}
