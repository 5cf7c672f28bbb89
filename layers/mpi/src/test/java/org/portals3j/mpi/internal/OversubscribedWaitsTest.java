package org.portals3j.mpi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/** A rank told that its job oversubscribes the host's cores backs off to parking after a short spin; others do not. */
class OversubscribedWaitsTest {
    private static final int SHORT = IdleMode.OVERSUBSCRIBED_SPINS + IdleMode.BACKOFF_YIELDS;

    @Test
    void anOversubscribedRanksWaitsParkAfterTheShortSpinAndTheOthersStillSpin() throws Exception {
        Job job = Job.builder(2).build();
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try {
            PointToPoint over = new PointToPoint(Portals.create(job, endpoints.get(0)), 0, MpiConfig.DEFAULT, true);
            PointToPoint not = new PointToPoint(Portals.create(job, endpoints.get(1)), 1, MpiConfig.DEFAULT, false);

            assertThat(roundsBeforePark(over.waitIdle())).isEqualTo(SHORT);
            assertThat(roundsBeforePark(not.waitIdle())).as("this thread's back-off, made again for this rank")
                    .isEqualTo(IdleMode.BACKOFF_SPINS + IdleMode.BACKOFF_YIELDS);
            assertThat(roundsBeforePark(over.waitIdle())).isEqualTo(SHORT);
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    /** Idle rounds (spins and yields, no park) until the strategy's next round would park. */
    private static int roundsBeforePark(IdleStrategy idle) {
        idle.reset();
        int rounds = 0;
        while (!idle.parksNext()) {
            idle.idle(0);
            rounds++;
        }
        return rounds;
    }
}
