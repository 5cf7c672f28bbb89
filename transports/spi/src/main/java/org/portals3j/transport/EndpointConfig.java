package org.portals3j.transport;

import java.util.Map;
import java.util.Objects;

/**
 * What a provider needs to open the endpoint of one rank.
 *
 * @param job     the job the rank belongs to (its id, size and peer table)
 * @param rank    this endpoint's rank, {@code 0 <= rank < job.size()}
 * @param idle    how threads of this endpoint wait
 * @param options    transport-specific settings ({@code key=value}), documented by each provider
 * @param rendezvous where the endpoint publishes its address and finds its peers'
 * @param oversubscribed whether the job's ranks on this host outnumber its cores ({@link Oversubscription}): the
 *                   endpoint's threads then give their core away early when idle
 */
public record EndpointConfig(Job job, int rank, IdleMode idle, Map<String, String> options, Rendezvous rendezvous,
                             boolean oversubscribed) {

    public EndpointConfig {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(rendezvous, "rendezvous");
        options = Map.copyOf(options);
        if (rank < 0 || rank >= job.size()) {
            throw new IllegalArgumentException("rank " + rank + " is outside the job (size " + job.size() + ")");
        }
    }

    /** An endpoint on a host whose cores its job does not oversubscribe. */
    public EndpointConfig(Job job, int rank, IdleMode idle, Map<String, String> options, Rendezvous rendezvous) {
        this(job, rank, idle, options, rendezvous, false);
    }

    /** An endpoint whose peers live in this JVM: they meet through the job's {@link LocalRendezvous}. */
    public EndpointConfig(Job job, int rank, IdleMode idle, Map<String, String> options) {
        this(job, rank, idle, options, LocalRendezvous.of(job));
    }

    public EndpointConfig(Job job, int rank) {
        this(job, rank, IdleMode.BACKOFF, Map.of());
    }

    /** The option {@code name}, or {@code fallback} when it is not set. */
    public String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }
}
