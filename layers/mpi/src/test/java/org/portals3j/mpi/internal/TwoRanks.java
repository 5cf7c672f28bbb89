package org.portals3j.mpi.internal;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/** Two ranks' point-to-point engines over inmem in one JVM, for tests that drive both sides themselves. */
final class TwoRanks {
    private TwoRanks() {
    }

    /** A scenario on two ranks' engines, with an arena for its buffers. */
    @FunctionalInterface
    interface Scenario {
        void run(PointToPoint rank0, PointToPoint rank1, Arena arena) throws Exception;
    }

    /** Runs {@code scenario} on a fresh two-rank job and closes the job's endpoints after it. */
    static void run(Scenario scenario) throws Exception {
        Job job = Job.builder(2).build();
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            PointToPoint rank0 = new PointToPoint(Portals.create(job, endpoints.get(0)), 0, MpiConfig.DEFAULT);
            PointToPoint rank1 = new PointToPoint(Portals.create(job, endpoints.get(1)), 1, MpiConfig.DEFAULT);
            scenario.run(rank0, rank1, arena);
        } finally {
            endpoints.forEach(Transport::close);
        }
    }
}
