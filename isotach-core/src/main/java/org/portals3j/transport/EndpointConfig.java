package org.portals3j.transport;

import java.util.Map;
import java.util.Objects;
import org.portals3j.runtime.Job;

/**
 * What a provider needs to open the endpoint of one rank.
 *
 * @param job     the job the rank belongs to (its id, size and peer table)
 * @param rank    this endpoint's rank, {@code 0 <= rank < job.size()}
 * @param idle    how threads of this endpoint wait
 * @param options transport-specific settings ({@code key=value}), documented by each provider
 */
public record EndpointConfig(Job job, int rank, IdleMode idle, Map<String, String> options) {

    public EndpointConfig {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(idle, "idle");
        options = Map.copyOf(options);
        if (rank < 0 || rank >= job.size()) {
            throw new IllegalArgumentException("rank " + rank + " is outside the job (size " + job.size() + ")");
        }
    }

    public EndpointConfig(Job job, int rank) {
        this(job, rank, IdleMode.BACKOFF, Map.of());
    }
}
