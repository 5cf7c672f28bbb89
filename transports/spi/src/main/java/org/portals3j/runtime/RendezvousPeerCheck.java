package org.portals3j.runtime;

import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * Decides whether a connection that has proved the job key may be rank {@code rank}: {@code portals run} checks
 * that it comes from the process it started for that rank. Called once per admission, on that connection's thread.
 */
@FunctionalInterface
public interface RendezvousPeerCheck {

    /**
     * Why the connection from {@code peer} (to the rendezvous's {@code local}) may not be rank {@code rank}, or
     * empty to admit it.
     */
    Optional<Refusal> check(int rank, InetSocketAddress peer, InetSocketAddress local);

    /**
     * A refusal.
     *
     * @param toRank what the refused rank is told, in terms it already knows
     * @param detail what the rendezvous logs (may name processes and pids)
     */
    record Refusal(String toRank, String detail) {
    }
}
