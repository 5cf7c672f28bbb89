package org.portals3j.transport.loopback;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;

/**
 * Provider {@code loopback}: the ranks of a job in one JVM, each with one bounded queue and one delivery thread. The
 * example of {@code docs/writing-a-transport.md}; it keeps the contract, with no speed in mind.
 */
public final class LoopbackTransportProvider implements TransportProvider {
    public static final String NAME = "loopback";

    /** The open endpoints of every job in this JVM, by job id (guarded by itself). */
    private static final Map<String, @Nullable LoopbackEndpoint[]> JOBS = new HashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "example transport: ranks in one JVM, one queue and one delivery thread each "
                + "(docs/writing-a-transport.md)";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return LoopbackEndpoint.CAPABILITIES;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public Transport open(EndpointConfig config) throws TransportException {
        synchronized (JOBS) {
            @Nullable LoopbackEndpoint[] job = JOBS.computeIfAbsent(config.job().id(),
                    id -> new LoopbackEndpoint[config.job().size()]);
            if (job.length != config.job().size()) {
                throw new TransportException("job " + config.job().id() + " already runs with " + job.length
                        + " ranks, not " + config.job().size() + ": give the new job another id");
            }
            if (job[config.rank()] != null) {
                throw new TransportException("rank " + config.rank() + " of job " + config.job().id() + " is open");
            }
            LoopbackEndpoint endpoint = new LoopbackEndpoint(config.job().id(), config.rank(), job.length);
            job[config.rank()] = endpoint;
            return endpoint;
        }
    }

    /** The open endpoint of {@code rank} in job {@code jobId}, or null if it is not open. */
    static @Nullable LoopbackEndpoint endpoint(String jobId, int rank) {
        synchronized (JOBS) {
            @Nullable LoopbackEndpoint[] job = JOBS.get(jobId);
            return job == null ? null : job[rank];
        }
    }

    /** Removes a closed endpoint, and returns the endpoints of its job still open. */
    static @Nullable LoopbackEndpoint[] leave(LoopbackEndpoint endpoint) {
        synchronized (JOBS) {
            @Nullable LoopbackEndpoint[] job = JOBS.get(endpoint.jobId());
            if (job == null) {
                return new LoopbackEndpoint[0];
            }
            job[endpoint.rank()] = null;
            boolean empty = true;
            for (LoopbackEndpoint e : job) {
                empty &= e == null;
            }
            if (empty) {
                JOBS.remove(endpoint.jobId());
            }
            return job.clone();
        }
    }
}
