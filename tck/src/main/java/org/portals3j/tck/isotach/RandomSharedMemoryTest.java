package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.SharedRegion;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckSeed;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.SmmRecorder.Read;

/**
 * A randomised shared-memory run checked as a whole against the Isotach shared memory model ({@code SmmHistory}):
 * several regions, some replicated on every host, some on subsets, one on a single host; random logical distances;
 * every host issues random mixes of iso_read, iso_write and iso_sched (each assigned a few accesses later), grouped
 * into isochrons of one to three accesses. At the end every read must have returned, every copy must have executed
 * exactly what was issued to it in one isotach order, and every read must have returned its corresponding post.
 *
 * <p>Seeded: the seed is new for every run, printed, and in every failure message; replay a run with
 * {@code -Dportals3j.tck.seed=<seed>} ({@link TckSeed}).
 */
class RandomSharedMemoryTest {
    static final Set<Interface> SMM = EnumSet.of(Interface.NONISO, Interface.ISO_SMM);

    @Test
    @SpecAssertion({"I-079", "I-080", "I-081", "I-082", "I-083", "I-084", "I-086", "I-087", "I-090", "I-092"})
    void fourHostsRandomAccessesFollowTheModel() {
        run(4, TckSeed.of("RandomSharedMemoryTest, 4 hosts"), 300);
    }

    @Test
    @SpecAssertion({"I-079", "I-080", "I-084", "I-087", "I-090"})
    void sixHostsRandomAccessesFollowTheModel() {
        run(6, TckSeed.of("RandomSharedMemoryTest, 6 hosts"), 200);
    }

    /** Regions: all hosts, two overlapping subsets, one single copy, and (6 hosts) two more subsets. */
    static List<SharedRegion> regions(int hosts) {
        List<SharedRegion> l = new ArrayList<>();
        int[] all = new int[hosts];
        for (int i = 0; i < hosts; i++) {
            all[i] = i;
        }
        l.add(new SharedRegion(0, 4, all));
        l.add(new SharedRegion(100, 3, new int[] {0, 1}));
        l.add(new SharedRegion(200, 3, new int[] {1, 2, 3}));
        l.add(new SharedRegion(300, 2, new int[] {3}));
        if (hosts == 4) {
            l.add(new SharedRegion(400, 3, new int[] {0, 2}));
        } else {
            l.add(new SharedRegion(400, 3, new int[] {2, 4, 5}));
            l.add(new SharedRegion(500, 2, new int[] {0, 5}));
        }
        return l;
    }

    static void run(int hosts, long seed, int accessesPerHost) {
        try {
            runSeeded(hosts, seed, accessesPerHost);
        } catch (AssertionError | RuntimeException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("random shared-memory run")) {
                throw e;
            }
            throw new AssertionError("random shared-memory run, " + hosts + " hosts, " + TckSeed.replay(seed) + ": "
                    + e.getMessage(), e);
        }
    }

    /** One run whose every random choice comes from {@code seed} (each host count draws its own stream of it). */
    static void runSeeded(int hosts, long seed, int accessesPerHost) {
        Random rnd = new Random(seed ^ hosts);
        int[][] d = new int[hosts][hosts];
        for (int i = 0; i < hosts; i++) {
            for (int j = i + 1; j < hosts; j++) {
                d[i][j] = 1 + rnd.nextInt(3);
                d[j][i] = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : d[i][j]; // mostly symmetric
            }
        }
        List<SharedRegion> regions = regions(hosts);
        IsotachConfig config = IsotachConfig.builder().sharedRegions(regions).distances(d).readCap(8).build();
        List<Long> addresses = new ArrayList<>();
        for (SharedRegion r : regions) {
            for (int w = 0; w < r.words(); w++) {
                addresses.add(r.base() + w);
            }
        }
        try (IsotachJob job = IsotachJob.builder(hosts).config(config).interfaces(SMM).unopened().open()) {
            SmmRecorder smm = SmmRecorder.open(job, config, SMM);
            Future<Boolean> body = job.submit(() -> {
                drive(job, smm, rnd, hosts, addresses, accessesPerHost);
                return Boolean.TRUE;
            });
            try {
                body.get(TckTransport.patience().toMillis() * 2, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof AssertionError a) {
                    throw a;
                }
                throw new AssertionError(cause);
            } catch (TimeoutException e) {
                job.close(); // the layer's calls never returned: closing the endpoints lets the thread go
                throw new AssertionError("a call into the layer has not returned for "
                        + TckTransport.patience().multipliedBy(2) + " (counters of host 0: " + job.net(0).counters()
                        + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    static void drive(IsotachJob job, SmmRecorder smm, Random rnd, int hosts, List<Long> addresses,
            int accessesPerHost) {
        Driver[] drivers = new Driver[hosts];
        for (int h = 0; h < hosts; h++) {
            drivers[h] = new Driver(h, new Random(rnd.nextLong()), smm, addresses);
        }
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        boolean busy = true;
        while (busy) {
            busy = false;
            for (int h = 0; h < hosts; h++) {
                // a random order of turns: some hosts issue several accesses while others wait
                int turns = rnd.nextInt(3);
                for (int t = 0; t < turns; t++) {
                    drivers[h].step(accessesPerHost);
                }
                busy |= !drivers[h].done(accessesPerHost);
            }
            job.pollAll();
            assertThat(System.nanoTime()).as("the hosts could not issue their accesses in time").isLessThan(deadline);
        }
        int reads = 0;
        for (Driver dr : drivers) {
            reads += dr.reads.size();
        }
        assertThat(reads).as("reads issued").isPositive();
        smm.verify();
        for (Driver dr : drivers) {
            for (Read r : dr.reads) {
                assertThat(r.var().isValid()).as("read of host %d", dr.host).isTrue();
            }
        }
        assertThat(smm.size()).as("sRefs executed").isGreaterThan(hosts * accessesPerHost / 2);
    }

    /** One host's random application. */
    static final class Driver {
        final int host;
        final Random rnd;
        final SmmRecorder smm;
        final List<Long> addresses;
        final List<Read> reads = new ArrayList<>();
        /** Addresses with a sched of this host not yet assigned, and how many accesses until the assign. */
        final Map<Long, Integer> openScheds = new HashMap<>();
        int issued;
        int leftInIsochron;

        Driver(int host, Random rnd, SmmRecorder smm, List<Long> addresses) {
            this.host = host;
            this.rnd = rnd;
            this.smm = smm;
            this.addresses = addresses;
        }

        boolean done(int target) {
            return issued >= target && openScheds.isEmpty() && leftInIsochron == 0;
        }

        void step(int target) {
            if (done(target)) {
                return;
            }
            if (leftInIsochron == 0) {
                leftInIsochron = 1 + rnd.nextInt(3);
            }
            boolean last = leftInIsochron == 1;
            int rc;
            Long due = dueAssign(target);
            if (due != null) {
                long value = rnd.nextInt(1_000_000);
                rc = smm.assign(host, due, value, last);
                if (rc == IsotachNet.SUCCESS) {
                    openScheds.remove(due);
                }
            } else {
                long address = addresses.get(rnd.nextInt(addresses.size()));
                int kind = rnd.nextInt(100);
                if (kind < 40) {
                    Read r = smm.read(host, address, last);
                    rc = r == null ? IsotachNet.FAILURE : IsotachNet.SUCCESS;
                    if (r != null) {
                        reads.add(r);
                    }
                } else if (kind < 75 || openScheds.containsKey(address)) {
                    rc = smm.write(host, address, host * 1_000_000L + issued, last);
                } else {
                    rc = smm.sched(host, address, last);
                    if (rc == IsotachNet.SUCCESS) {
                        openScheds.put(address, 1 + rnd.nextInt(6));
                    }
                }
            }
            if (rc == IsotachNet.SUCCESS) {
                issued++;
                leftInIsochron--;
                for (Map.Entry<Long, Integer> e : openScheds.entrySet()) {
                    e.setValue(e.getValue() - 1);
                }
            } else {
                // buffers full or read cap reached: close what is open and try again later
                assertThat(smm.net(host).isoEnd()).isEqualTo(IsotachNet.SUCCESS);
                leftInIsochron = 0;
            }
        }

        /** A sched whose assign is due (or any, once the host has issued its share). */
        @Nullable Long dueAssign(int target) {
            for (Map.Entry<Long, Integer> e : openScheds.entrySet()) {
                if (e.getValue() <= 0 || issued >= target) {
                    return e.getKey();
                }
            }
            return null;
        }
    }
}
