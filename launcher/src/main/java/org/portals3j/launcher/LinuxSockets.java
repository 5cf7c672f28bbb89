package org.portals3j.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Which process holds a TCP connection of this host's network namespace, from Linux's {@code /proc}:
 * {@code /proc/net/tcp} and {@code tcp6} map a connection's two ends to its socket's inode, and
 * {@code /proc/PID/fd} lists the sockets a process holds ({@code socket:[INODE]}), for processes of this user.
 */
final class LinuxSockets {
    private final Path proc;

    LinuxSockets(Path proc) {
        this.proc = proc;
    }

    /** This machine's {@code /proc}. */
    static LinuxSockets system() {
        return new LinuxSockets(Path.of("/proc"));
    }

    /** Why this {@code /proc} cannot tell who holds a connection (not Linux, not mounted, not readable), if so. */
    Optional<String> unavailableReason() {
        if (!Files.isReadable(proc.resolve("net/tcp"))) {
            return Optional.of(proc.resolve("net/tcp") + " is not readable (not Linux, or /proc is not mounted)");
        }
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("self/fd"))) {
            fds.iterator().hasNext();
        } catch (IOException | RuntimeException e) {
            return Optional.of("cannot list " + proc.resolve("self/fd") + ": " + e.getMessage());
        }
        return Optional.empty();
    }

    /** The inode of the TCP socket whose own end is {@code local} and whose peer is {@code remote}, if there is one. */
    OptionalLong inode(InetSocketAddress local, InetSocketAddress remote) throws IOException {
        for (String table : List.of("net/tcp", "net/tcp6")) {
            Path file = proc.resolve(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            for (String line : Files.readAllLines(file)) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !f[0].endsWith(":")) {
                    continue; // the header
                }
                if (sameEnd(f[1], local) && sameEnd(f[2], remote)) {
                    long inode = Long.parseLong(f[9]);
                    if (inode != 0) {
                        return OptionalLong.of(inode);
                    }
                }
            }
        }
        return OptionalLong.empty();
    }

    /** Whether process {@code pid} holds socket {@code inode} open (false when it is gone or not readable). */
    boolean holds(long pid, long inode) {
        String wanted = "socket:[" + inode + "]";
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve(pid + "/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(wanted)) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** Whether {@code text} ({@code ADDRESS:PORT} as /proc/net/tcp* writes it, in hex) is {@code end}. */
    private static boolean sameEnd(String text, InetSocketAddress end) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return false;
        }
        try {
            if (Integer.parseInt(text.substring(colon + 1), 16) != end.getPort()) {
                return false;
            }
            @Nullable InetAddress address = address(text.substring(0, colon));
            return address != null && address.equals(plain(end.getAddress()));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The address /proc/net/tcp* writes as hex: 4 or 16 bytes, each group of 4 printed as a 32-bit number in this
     * machine's byte order. An IPv4-mapped IPv6 address comes back as the IPv4 address.
     */
    private static @Nullable InetAddress address(String hex) {
        if (hex.length() != 8 && hex.length() != 32) {
            return null;
        }
        ByteBuffer bytes = ByteBuffer.allocate(hex.length() / 2);
        for (int i = 0; i < hex.length(); i += 8) {
            int word = (int) Long.parseLong(hex.substring(i, i + 8), 16);
            bytes.putInt(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? Integer.reverseBytes(word) : word);
        }
        try {
            return InetAddress.getByAddress(bytes.array());
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** {@code a} as /proc writes it: an IPv4-mapped IPv6 address as IPv4. */
    private static @Nullable InetAddress plain(@Nullable InetAddress a) {
        if (a == null) {
            return null;
        }
        try {
            return InetAddress.getByAddress(a.getAddress());
        } catch (UnknownHostException e) {
            return a;
        }
    }
}
