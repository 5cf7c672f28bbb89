package org.portals3j.tck.isotach;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.isotach.SmmHistory;
import org.portals3j.tck.TckTransport;

/**
 * The shared-memory observer the kit installs on every host: keeps every executed sRef for the tests to wait on
 * and query, and feeds an {@link SmmHistory}. Tests record their successful accesses through {@link #write},
 * {@link #sched}, {@link #assign} and {@link #read} (which call the layer and {@link SmmHistory#issued} together),
 * so that {@link #verify} also checks that exactly what was issued was executed.
 */
final class SmmRecorder implements SharedMemoryObserver {
    /** One executed sRef. */
    record Rec(int copyHost, long sequence, long pulse, int source, int kind, long address, long operand, long value) {
    }

    /** A read issued through {@link #read}: its variable and its index in the history. */
    record Read(int host, IsoVar var, long op) {
    }

    private final IsotachJob job;
    private final SmmHistory history;
    private final List<Rec> records = new ArrayList<>();
    private final List<Read> reads = new ArrayList<>();

    SmmRecorder(IsotachJob job, IsotachConfig config) {
        this.job = job;
        this.history = new SmmHistory(job.size(), config);
    }

    /** A job of {@code hosts} hosts with {@code config} and {@code interfaces}, a recorder on every host, opened. */
    static SmmRecorder open(IsotachJob job, IsotachConfig config, Set<Interface> interfaces) {
        SmmRecorder r = new SmmRecorder(job, config);
        for (int h = 0; h < job.size(); h++) {
            job.net(h).sharedMemoryObserver(r);
        }
        IsoTestSupport.openAll(job, interfaces);
        return r;
    }

    @Override
    public synchronized void executed(int copyHost, long sequence, long pulse, int source, int kind, long address,
            long operand, long value) {
        records.add(new Rec(copyHost, sequence, pulse, source, kind, address, operand, value));
        history.executed(copyHost, sequence, pulse, source, kind, address, operand, value);
    }

    /** How many sRefs of {@code kind} from {@code source} on {@code address} host {@code copyHost} executed. */
    synchronized int count(int copyHost, int source, int kind, long address) {
        int n = 0;
        for (Rec r : records) {
            if (r.copyHost() == copyHost && r.source() == source && r.kind() == kind && r.address() == address) {
                n++;
            }
        }
        return n;
    }

    /** Every record so far. */
    synchronized List<Rec> records() {
        return List.copyOf(records);
    }

    synchronized int size() {
        return records.size();
    }

    /** Polls every host until each of {@code hosts} executed {@code n} sRefs of that kind, source and address. */
    void awaitExecuted(int n, int source, int kind, long address, int... hosts) {
        job.awaitCondition(SharedMemoryObserver.kindName(kind) + " by " + source + " of " + address + " at hosts "
                + Arrays.toString(hosts), () -> {
                    for (int h : hosts) {
                        if (count(h, source, kind, address) < n) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    int write(int host, long address, long value, boolean last) {
        int rc = job.net(host).isoWrite(address, value, last);
        if (rc == IsotachNet.SUCCESS) {
            history.issued(host, WRITE, address, value);
        }
        return rc;
    }

    int sched(int host, long address, boolean last) {
        int rc = job.net(host).isoSched(address, last);
        if (rc == IsotachNet.SUCCESS) {
            history.issued(host, SCHED, address, 0);
        }
        return rc;
    }

    int assign(int host, long address, long value, boolean last) {
        int rc = job.net(host).isoAssign(address, value, last);
        if (rc == IsotachNet.SUCCESS) {
            history.issued(host, ASSIGN, address, value);
        }
        return rc;
    }

    /** iso_read into a fresh variable; null when the layer refused it. */
    @Nullable Read read(int host, long address, boolean last) {
        IsoVar v = new IsoVar();
        if (job.net(host).isoRead(address, v, last) != IsotachNet.SUCCESS) {
            return null;
        }
        Read r = new Read(host, v, history.issued(host, READ, address, 0));
        synchronized (this) {
            reads.add(r);
        }
        return r;
    }

    /** {@link #read} that must succeed. */
    Read mustRead(int host, long address, boolean last) {
        Read r = read(host, address, last);
        if (r == null) {
            throw new AssertionError("iso_read of " + address + " on host " + host + " failed");
        }
        return r;
    }

    /** Polls every host until the read has returned; its value. */
    long await(Read r) {
        job.awaitCondition("the read of host " + r.host() + " returns", r.var()::isValid);
        return r.var().value();
    }

    /**
     * Waits until every read returned, records what each returned, and checks the whole history
     * ({@link SmmHistory#verify()}).
     */
    void verify() {
        awaitQuiet();
        List<Read> all;
        synchronized (this) {
            all = List.copyOf(reads);
        }
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        for (Read r : all) {
            while (!r.var().isValid()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("a read of host " + r.host() + " (access #" + r.op() + ") never returned");
                }
                job.pollAll();
            }
            history.returned(r.host(), r.op(), r.var().value());
        }
        history.verify();
    }

    /** Polls every host until logical time has moved on twice without a new sRef executing anywhere. */
    void awaitQuiet() {
        int stable = 0;
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (stable < 2) {
            int before = size();
            IsoTestSupport.letTimePass(job, 10);
            stable = size() == before ? stable + 1 : 0;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("shared memory never went quiet");
            }
        }
    }

    IsotachNet net(int host) {
        return job.net(host);
    }

    SmmHistory history() {
        return history;
    }
}
