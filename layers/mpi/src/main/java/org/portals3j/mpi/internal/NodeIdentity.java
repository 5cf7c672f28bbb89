package org.portals3j.mpi.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What "the same node" means for {@code splitType(Comm.TYPE_SHARED, ...)} (MPI 4.1 section 7.4.2 leaves it to the
 * implementation): two ranks are on the same node when they run under the same operating-system kernel, i.e. when
 * they have the same host name and, on Linux, the same boot id ({@code /proc/sys/kernel/random/boot_id}, which
 * tells apart two machines given one name). A job's ranks carry no host in their process mapping (a rank is a Portals
 * node id of its own), so each rank computes this identity itself and the ranks compare them: ranks in one JVM
 * ({@code portals run --transport inmem}, the tests) and processes started on one host by {@code portals run} are
 * one node; the ranks Slurm or Open MPI places on different hosts are not. The digest (SHA-256) is what travels.
 */
final class NodeIdentity {
    /** The digest's length. */
    static final int BYTES = 32;
    private static final byte[] DIGEST = compute();

    private NodeIdentity() {
    }

    /** This process's node identity, digested (a copy). */
    static byte[] digest() {
        return DIGEST.clone();
    }

    private static byte[] compute() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        String boot = "";
        try {
            boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        } catch (IOException | SecurityException e) {
            // not Linux, or not readable: the host name alone
        }
        try {
            return MessageDigest.getInstance("SHA-256").digest((host + "\n" + boot).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
