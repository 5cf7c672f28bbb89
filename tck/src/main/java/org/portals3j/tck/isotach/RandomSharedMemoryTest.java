package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
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

    /**
     * One run whose every random choice comes from {@code seed} (each host count draws its own stream of it):
     * answers what each host issued, which is {@link #plans} of the seed whatever the timing.
     */
    static List<List<Access>> runSeeded(int hosts, long seed, int accessesPerHost) {
        Random rnd = new Random(seed ^ hosts);
        int[][] d = distances(rnd, hosts);
        List<SharedRegion> regions = regions(hosts);
        List<List<Access>> plans = plans(rnd, hosts, addresses(regions), accessesPerHost);
        IsotachConfig config = IsotachConfig.builder().sharedRegions(regions).distances(d).readCap(8).build();
        try (IsotachJob job = IsotachJob.builder(hosts).config(config).interfaces(SMM).unopened().open()) {
            SmmRecorder smm = SmmRecorder.open(job, config, SMM);
            Future<List<List<Access>>> body = job.submit(() -> drive(job, smm, rnd, plans, accessesPerHost));
            try {
                return body.get(TckTransport.patience().toMillis() * 2, TimeUnit.MILLISECONDS);
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

    /**
     * Every host's accesses, in issue order, as {@code seed} chooses them for {@code hosts} hosts: the choices of
     * {@link #runSeeded}, made before the run so that no timing (a full buffer, the read cap) can change them.
     */
    static List<List<Access>> plans(long seed, int hosts, int accessesPerHost) {
        Random rnd = new Random(seed ^ hosts);
        distances(rnd, hosts);
        return plans(rnd, hosts, addresses(regions(hosts)), accessesPerHost);
    }

    /** Random logical distances, mostly symmetric. */
    private static int[][] distances(Random rnd, int hosts) {
        int[][] d = new int[hosts][hosts];
        for (int i = 0; i < hosts; i++) {
            for (int j = i + 1; j < hosts; j++) {
                d[i][j] = 1 + rnd.nextInt(3);
                d[j][i] = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : d[i][j]; // mostly symmetric
            }
        }
        return d;
    }

    private static List<Long> addresses(List<SharedRegion> regions) {
        List<Long> addresses = new ArrayList<>();
        for (SharedRegion r : regions) {
            for (int w = 0; w < r.words(); w++) {
                addresses.add(r.base() + w);
            }
        }
        return addresses;
    }

    private static List<List<Access>> plans(Random rnd, int hosts, List<Long> addresses, int accessesPerHost) {
        List<List<Access>> plans = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            plans.add(plan(h, new Random(rnd.nextLong()), addresses, accessesPerHost));
        }
        return List.copyOf(plans);
    }

    /** What kind of access. */
    enum Kind { READ, WRITE, SCHED, ASSIGN }

    /**
     * One access of a host's random application, as the seed chose it.
     *
     * @param last whether it ends its isochron (one also ends early where the layer refused an access)
     */
    record Access(Kind kind, long address, long value, boolean last) {
    }

    /**
     * One host's random application: isochrons of one to three accesses, each a read, a write or a sched whose
     * assign comes one to six accesses later, until {@code target} accesses were issued and every sched assigned.
     */
    static List<Access> plan(int host, Random rnd, List<Long> addresses, int target) {
        List<Access> plan = new ArrayList<>();
        Map<Long, Integer> openScheds = new LinkedHashMap<>(); // address -> accesses until its assign is due
        int leftInIsochron = 0;
        while (plan.size() < target || !openScheds.isEmpty() || leftInIsochron != 0) {
            if (leftInIsochron == 0) {
                leftInIsochron = 1 + rnd.nextInt(3);
            }
            boolean last = leftInIsochron == 1;
            Long due = dueAssign(openScheds, plan.size() >= target);
            if (due != null) {
                plan.add(new Access(Kind.ASSIGN, due, rnd.nextInt(1_000_000), last));
                openScheds.remove(due);
            } else {
                long address = addresses.get(rnd.nextInt(addresses.size()));
                int kind = rnd.nextInt(100);
                if (kind < 40) {
                    plan.add(new Access(Kind.READ, address, 0, last));
                } else if (kind < 75 || openScheds.containsKey(address)) {
                    plan.add(new Access(Kind.WRITE, address, host * 1_000_000L + plan.size(), last));
                } else {
                    plan.add(new Access(Kind.SCHED, address, 0, last));
                    openScheds.put(address, 1 + rnd.nextInt(6));
                }
            }
            leftInIsochron--;
            openScheds.replaceAll((address, until) -> until - 1);
        }
        return List.copyOf(plan);
    }

    /** A sched whose assign is due (or any, once the host has issued its share). */
    private static @Nullable Long dueAssign(Map<Long, Integer> openScheds, boolean shareIssued) {
        for (Map.Entry<Long, Integer> e : openScheds.entrySet()) {
            if (e.getValue() <= 0 || shareIssued) {
                return e.getKey();
            }
        }
        return null;
    }

    /** Issues every host's plan, hosts taking random turns, and checks the outcome; answers what was issued. */
    static List<List<Access>> drive(IsotachJob job, SmmRecorder smm, Random rnd, List<List<Access>> plans,
            int accessesPerHost) {
        int hosts = plans.size();
        Driver[] drivers = new Driver[hosts];
        for (int h = 0; h < hosts; h++) {
            drivers[h] = new Driver(h, plans.get(h), smm);
        }
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        boolean busy = true;
        while (busy) {
            busy = false;
            for (int h = 0; h < hosts; h++) {
                // a random order of turns: some hosts issue several accesses while others wait
                int turns = rnd.nextInt(3);
                for (int t = 0; t < turns; t++) {
                    drivers[h].step();
                }
                busy |= !drivers[h].done();
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
        List<List<Access>> issued = new ArrayList<>();
        for (Driver dr : drivers) {
            for (Read r : dr.reads) {
                assertThat(r.var().isValid()).as("read of host %d", dr.host).isTrue();
            }
            issued.add(List.copyOf(dr.issued));
        }
        assertThat(smm.size()).as("sRefs executed").isGreaterThan(hosts * accessesPerHost / 2);
        return issued;
    }

    /** One host issuing its plan in order: an access the layer refuses ends the open isochron and is tried again. */
    static final class Driver {
        final int host;
        final List<Access> plan;
        final SmmRecorder smm;
        final List<Read> reads = new ArrayList<>();
        final List<Access> issued = new ArrayList<>();

        Driver(int host, List<Access> plan, SmmRecorder smm) {
            this.host = host;
            this.plan = plan;
            this.smm = smm;
        }

        boolean done() {
            return issued.size() == plan.size();
        }

        void step() {
            if (done()) {
                return;
            }
            Access a = plan.get(issued.size());
            int rc = switch (a.kind()) {
                case READ -> {
                    Read r = smm.read(host, a.address(), a.last());
                    if (r != null) {
                        reads.add(r);
                    }
                    yield r == null ? IsotachNet.FAILURE : IsotachNet.SUCCESS;
                }
                case WRITE -> smm.write(host, a.address(), a.value(), a.last());
                case SCHED -> smm.sched(host, a.address(), a.last());
                case ASSIGN -> smm.assign(host, a.address(), a.value(), a.last());
            };
            if (rc == IsotachNet.SUCCESS) {
                issued.add(a);
            } else {
                // buffers full or read cap reached: close what is open and try the same access again later
                assertThat(smm.net(host).isoEnd()).isEqualTo(IsotachNet.SUCCESS);
            }
        }
    }
}
