package org.portals3j.isotach.internal.smm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.isotach.SmmHistory;

/**
 * A stand-in for the engine: several hosts' {@link SharedMemory}, random accesses issued pulse by pulse, each
 * sRef executed at its copies in isotach order (pulse, sender id, issue order), read responses carried as
 * unordered noniso messages that arrive after random delays, and a responder that sometimes refuses (a full
 * send buffer) so that {@link SharedMemory#execute} is retried. It records what it issued and what the hosts
 * observed, so a history can be replayed into {@link SmmHistory} as it happened or deliberately broken.
 */
final class SmmSimulation {
    /** One observer record. */
    record Obs(int copyHost, long sequence, long pulse, int source, int kind, long address, long operand,
            long value) {
        Obs withValue(long v) {
            return new Obs(copyHost, sequence, pulse, source, kind, address, operand, v);
        }

        Obs withSequence(long s) {
            return new Obs(copyHost, s, pulse, source, kind, address, operand, value);
        }
    }

    /** One access a host issued successfully. */
    record Issued(int host, int kind, long address, long value) {
    }

    private record SRef(SharedReferenceKind kind, int source, long address, long operand) {
    }

    private record Response(int reader, int slot, long value, long pulse, long dueAt) {
    }

    private record ReadOp(int host, int issuedIndex, IsoVar lvar, long pulse) {
    }

    final int hosts;
    final IsotachConfig config;
    final SharedMemory[] memory;
    final List<Obs> observed = Collections.synchronizedList(new ArrayList<>());
    final List<Issued> issued = new ArrayList<>();
    final List<long[]> returned = new ArrayList<>(); // {host, issuedIndexAmongHost, value}
    private final Random random;
    private final long[] addresses;
    private final double refuseProbability;
    private final List<List<List<SRef>>> bucket = new ArrayList<>(); // [copy][source] -> sRefs of this pulse
    private final List<Response> inFlight = new ArrayList<>();
    private final List<ReadOp> reads = new ArrayList<>();
    private final List<List<Long>> openScheds = new ArrayList<>();
    private final int[] issuedPerHost;
    private long pulse;
    long refusals;

    SmmSimulation(int hosts, IsotachConfig config, long seed, double refuseProbability, long... addresses) {
        this.hosts = hosts;
        this.config = config;
        this.random = new Random(seed);
        this.addresses = addresses;
        this.refuseProbability = refuseProbability;
        this.memory = new SharedMemory[hosts];
        this.issuedPerHost = new int[hosts];
        SharedMemoryObserver capture = (c, seq, p, s, k, a, op, v) -> observed.add(new Obs(c, seq, p, s, k, a, op, v));
        for (int h = 0; h < hosts; h++) {
            memory[h] = new SharedMemory(h, hosts, config);
            memory[h].observer(capture);
            List<List<SRef>> perSource = new ArrayList<>();
            for (int s = 0; s < hosts; s++) {
                perSource.add(new ArrayList<>());
            }
            bucket.add(perSource);
            openScheds.add(new ArrayList<>());
        }
    }

    /** Runs {@code pulses} pulses of random traffic, then assigns every open sched and drains all responses. */
    void run(int pulses, int maxAccessesPerHostPerPulse) {
        for (int i = 0; i < pulses; i++) {
            for (int h = 0; h < hosts; h++) {
                int n = random.nextInt(maxAccessesPerHostPerPulse + 1);
                for (int k = 0; k < n; k++) {
                    issueRandom(h);
                }
            }
            executePulse();
        }
        for (int h = 0; h < hosts; h++) {
            for (long a : new ArrayList<>(openScheds.get(h))) {
                issueChange(h, SharedReferenceKind.ASSIGN, a, random.nextInt(1000));
            }
        }
        executePulse();
        while (!inFlight.isEmpty()) {
            executePulse();
        }
        for (ReadOp r : reads) {
            assertThat(r.lvar.isValid()).as("read %s answered", r).isTrue();
            assertThat(r.lvar.readPulse()).as("pulse of read %s", r).isEqualTo(r.pulse);
            returned.add(new long[] {r.host, r.issuedIndex, r.lvar.value()});
        }
        for (SharedMemory m : memory) {
            assertThat(m.outstandingReads()).isZero();
            assertThat(m.pendingReads()).isZero();
        }
    }

    private void issueRandom(int h) {
        long a = addresses[random.nextInt(addresses.length)];
        int choice = random.nextInt(10);
        if (choice < 4) {
            IsoVar lvar = new IsoVar();
            int slot = memory[h].allocateRead(lvar);
            if (slot < 0) {
                return; // read_cap outstanding (I-089): the application would retry later
            }
            int index = record(h, SharedMemoryObserver.READ, a, 0);
            reads.add(new ReadOp(h, index, lvar, pulse));
            route(h, SharedReferenceKind.READ, a, slot);
        } else if (choice < 6) {
            issueChange(h, SharedReferenceKind.WRITE, a, random.nextInt(1000));
        } else if (choice < 8) {
            if (memory[h].checkChange(SharedReferenceKind.SCHEDULE, a) == SharedMemory.SUCCESS) {
                issueChange(h, SharedReferenceKind.SCHEDULE, a, 0);
            } else {
                assertThat(openScheds.get(h)).contains(a);
            }
        } else {
            List<Long> open = openScheds.get(h);
            if (!open.isEmpty()) {
                issueChange(h, SharedReferenceKind.ASSIGN, open.get(random.nextInt(open.size())), random.nextInt(1000));
            } else {
                assertThat(memory[h].checkChange(SharedReferenceKind.ASSIGN, a)).isEqualTo(SharedMemory.FAILURE);
            }
        }
    }

    private void issueChange(int h, SharedReferenceKind kind, long a, long value) {
        assertThat(memory[h].checkChange(kind, a)).isEqualTo(SharedMemory.SUCCESS);
        memory[h].noteIssued(kind, a);
        if (kind == SharedReferenceKind.SCHEDULE) {
            openScheds.get(h).add(a);
        } else if (kind == SharedReferenceKind.ASSIGN) {
            openScheds.get(h).remove((Long) a);
        }
        record(h, kind.code(), a, value);
        route(h, kind, a, value);
    }

    private int record(int h, int kind, long a, long value) {
        issued.add(new Issued(h, kind, a, value));
        return issuedPerHost[h]++;
    }

    private void route(int h, SharedReferenceKind kind, long a, long operand) {
        if (kind == SharedReferenceKind.READ) {
            bucket.get(memory[h].nearestCopy(a)).get(h).add(new SRef(kind, h, a, operand));
            return;
        }
        int[] copies = new int[hosts];
        int n = memory[h].copies(a, copies);
        for (int i = 0; i < n; i++) {
            bucket.get(copies[i]).get(h).add(new SRef(kind, h, a, operand));
        }
    }

    /** Executes this pulse's buckets in isotach order at every copy, then lets due responses arrive. */
    private void executePulse() {
        for (int c = 0; c < hosts; c++) {
            final int copy = c;
            SharedMemory.ReadResponder responder = (reader, slot, value, p) -> {
                if (random.nextDouble() < refuseProbability) {
                    refusals++;
                    return false;
                }
                if (reader == copy) {
                    memory[copy].completeRead(slot, value, p); // I-086: answered without network
                } else {
                    inFlight.add(new Response(reader, slot, value, p, pulse + random.nextInt(4)));
                }
                return true;
            };
            for (int s = 0; s < hosts; s++) {
                for (SRef r : bucket.get(c).get(s)) {
                    while (!memory[c].execute(r.kind, r.source, r.address, r.operand, pulse, responder)) {
                        // the engine would poll and come back with the same sRef
                    }
                }
                bucket.get(c).get(s).clear();
            }
        }
        Collections.shuffle(inFlight, random); // noniso: no isotach order among responses (I-091)
        for (var it = inFlight.iterator(); it.hasNext();) {
            Response r = it.next();
            if (r.dueAt <= pulse) {
                memory[r.reader].completeRead(r.slot, r.value, r.pulse);
                it.remove();
            }
        }
        pulse++;
    }

    /** The history replayed into a fresh checker, observer records passed through {@code records}. */
    SmmHistory history(List<Obs> records, boolean withIssued) {
        SmmHistory h = new SmmHistory(hosts, config);
        for (Obs o : records) {
            h.executed(o.copyHost, o.sequence, o.pulse, o.source, o.kind, o.address, o.operand, o.value);
        }
        if (withIssued) {
            for (Issued i : issued) {
                h.issued(i.host, i.kind, i.address, i.value);
            }
            for (long[] r : returned) {
                h.returned((int) r[0], r[1], r[2]);
            }
        }
        return h;
    }
}
