package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Tasks that call LAPI_Init at different times, and LAPI_Term right after a Gfence: the collectives' control
 * packets, which take no flow-control credit, must neither be lost on a task whose context does not exist yet nor
 * be cut off by the sender's Term.
 */
class LateStartTest {

    @Test
    void addressInitAndGfenceWaitForATaskThatInitialisesLater() throws Exception {
        Job job = Job.local(3);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        List<Portals> libraries = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            libraries.add(Portals.create(job, endpoints.get(r)));
        }
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<long[]>> early = new ArrayList<>();
            List<Thread> earlyThreads = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                LapiContext c = LapiContext.init(libraries.get(r), LapiConfig.DEFAULT);
                long mine = 100 + r;
                early.add(pool.submit(() -> {
                    synchronized (earlyThreads) {
                        earlyThreads.add(Thread.currentThread());
                    }
                    long[] table = new long[3];
                    c.addressInit(mine, table);
                    c.gfence();
                    c.term();
                    return table;
                }));
            }
            // Task 2 starts only once both others are waiting in Address_init (their packets to it would have
            // been dropped before the fix); a wait that does not get there still leaves a valid, weaker test.
            LapiJob.await(() -> waitingIn(earlyThreads, 2), "tasks 0 and 1 waiting in LAPI_Address_init");
            LapiContext late = LapiContext.init(libraries.get(2), LapiConfig.DEFAULT);
            early.add(pool.submit(() -> {
                long[] table = new long[3];
                late.addressInit(102, table);
                late.gfence();
                late.term();
                return table;
            }));
            for (Future<long[]> f : early) {
                assertThat(f.get(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS)).containsExactly(100, 101, 102);
            }
        } finally {
            pool.shutdownNow();
            for (Transport t : endpoints) {
                t.close();
            }
        }
    }

    @Test
    void termRightAfterGfenceLetsEveryTaskLeaveTheGfence() throws Exception {
        for (int round = 0; round < 20; round++) {
            try (LapiJob job = LapiJob.start(4)) {
                job.onAll(r -> {
                    job.task(r).gfence();
                    job.task(r).term();
                });
            }
        }
    }

    private static boolean waitingIn(List<Thread> threads, int n) {
        synchronized (threads) {
            if (threads.size() < n) {
                return false;
            }
            for (Thread t : threads) {
                Thread.State s = t.getState();
                if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
                    return false;
                }
            }
            return true;
        }
    }
}
