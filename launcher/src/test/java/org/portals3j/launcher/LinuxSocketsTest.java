package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The /proc lookups of the pid check, on this machine's real /proc (Linux only). */
class LinuxSocketsTest {
    private final LinuxSockets sockets = LinuxSockets.system();

    @BeforeEach
    void onLinux() {
        assumeTrue(sockets.unavailableReason().isEmpty(), () -> "no usable /proc: " + sockets.unavailableReason());
    }

    @Test
    void aConnectionOfThisProcessIsFoundAndHeldByThisProcessOnly() throws Exception {
        for (InetAddress loopback : new InetAddress[] {InetAddress.getByName("127.0.0.1"),
                InetAddress.getByName("::1")}) {
            ServerSocket listener;
            try {
                listener = new ServerSocket(0, 5, loopback);
            } catch (IOException e) {
                continue; // no IPv6 loopback here
            }
            Process other = new ProcessBuilder("sleep", "30").start();
            try (listener; Socket client = new Socket(loopback, listener.getLocalPort());
                 Socket accepted = listener.accept()) {
                if (!(client.getLocalSocketAddress() instanceof InetSocketAddress clientEnd
                        && accepted.getLocalSocketAddress() instanceof InetSocketAddress serverEnd)) {
                    throw new AssertionError("a connected socket without its addresses");
                }
                OptionalLong inode = sockets.inode(clientEnd, serverEnd);
                assertThat(inode).as("the client's end, over %s", loopback).isPresent();
                assertThat(sockets.inode(serverEnd, clientEnd)).as("the server's end is another socket").isPresent()
                        .isNotEqualTo(inode);
                assertThat(sockets.holds(ProcessHandle.current().pid(), inode.getAsLong())).isTrue();
                assertThat(sockets.holds(other.pid(), inode.getAsLong())).isFalse();
                assertThat(sockets.inode(new InetSocketAddress(loopback, 1), serverEnd)).isEmpty();
            } finally {
                other.destroyForcibly();
                other.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
