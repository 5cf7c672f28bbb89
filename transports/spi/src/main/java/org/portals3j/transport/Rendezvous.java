package org.portals3j.transport;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the ranks of a job find each other before they can talk: each rank publishes small
 * key/value facts about itself (a transport's bound address, its user id) and looks up the others'.
 *
 * <p>Publishing never waits; looking up waits until the other rank has published or the timeout
 * passes. That split is what lets one thread open every endpoint of an in-JVM job in turn
 * ({@link org.portals3j.runtime.LocalJob#openAll}) while the same transport code, in a multi-process job,
 * blocks until its peers have started.
 *
 * <p>Implementations: {@link LocalRendezvous} for ranks that share a JVM; a TCP client for ranks in
 * separate processes (the launcher or rank 0 serves it).
 */
public interface Rendezvous {

    /**
     * Publishes {@code value} under {@code key} for {@code rank} (the caller's own rank). Publishing the
     * same key again with the same value is harmless; with another value it is an error.
     *
     * @throws TransportException when the rendezvous cannot be reached (the message says what to do)
     */
    void publish(int rank, String key, String value) throws TransportException;

    /**
     * The value {@code rank} published under {@code key}, waiting up to {@code timeout} for it.
     *
     * @throws TransportException when it does not appear in time, or the rendezvous cannot be reached
     */
    String lookup(int rank, String key, Duration timeout) throws TransportException;

    /**
     * The address this process reached the rendezvous from, when it crossed a network: the address its
     * peers can reach it at, and so what a transport should bind and publish unless told otherwise.
     * Empty for an in-JVM rendezvous.
     */
    default Optional<InetAddress> localAddress() {
        return Optional.empty();
    }
}
