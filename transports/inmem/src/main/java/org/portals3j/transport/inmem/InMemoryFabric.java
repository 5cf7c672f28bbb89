package org.portals3j.transport.inmem;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Job;
import org.portals3j.transport.TransportException;

/** The endpoints of one job, keyed by rank; jobs are told apart by their id. */
final class InMemoryFabric {
    private static final Map<String, InMemoryFabric> FABRICS = new HashMap<>();

    private final String jobId;
    private final AtomicReferenceArray<@Nullable InMemoryEndpoint> endpoints;
    private int open;

    private InMemoryFabric(String jobId, int size) {
        this.jobId = jobId;
        this.endpoints = new AtomicReferenceArray<>(size);
    }

    static InMemoryFabric join(Job job) throws TransportException {
        synchronized (FABRICS) {
            InMemoryFabric fabric = FABRICS.get(job.id());
            if (fabric == null) {
                fabric = new InMemoryFabric(job.id(), job.size());
                FABRICS.put(job.id(), fabric);
            } else if (fabric.size() != job.size()) {
                throw new TransportException("job " + job.id() + " is already running with " + fabric.size()
                        + " ranks, not " + job.size() + ": give the new job another id");
            }
            return fabric;
        }
    }

    InMemoryEndpoint open(int rank) throws TransportException {
        synchronized (FABRICS) {
            if (endpoints.get(rank) != null) {
                throw new TransportException("rank " + rank + " of job " + jobId + " is already open");
            }
            InMemoryEndpoint endpoint = new InMemoryEndpoint(this, rank);
            endpoints.set(rank, endpoint);
            open++;
            return endpoint;
        }
    }

    /** Removes a closed endpoint; the fabric itself goes when its last endpoint does. */
    void leave(InMemoryEndpoint endpoint) {
        synchronized (FABRICS) {
            if (endpoints.compareAndSet(endpoint.rank(), endpoint, null) && --open == 0) {
                FABRICS.remove(jobId, this);
            }
        }
    }

    int size() {
        return endpoints.length();
    }

    @Nullable InMemoryEndpoint endpoint(int rank) {
        return endpoints.get(rank);
    }
}
