package org.portals3j.tck.portals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.runtime.LocalJob;
import org.portals3j.tck.TckTransport;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;

/**
 * A job of N ranks on the transport under test, all in this JVM, each with its own Portals library.
 * By default every rank has called {@code PtlInit} and initialised the default interface with
 * {@code PTL_PID_ANY}: the set-up the kit's catalogue assumes.
 *
 * <pre>{@code
 * try (TckJob job = TckJob.start(2)) {
 *     Rank a = job.rank(0), b = job.rank(1);
 *     ...
 * }
 * }</pre>
 */
public final class TckJob implements AutoCloseable {
    private final Job job;
    private final List<Transport> endpoints;
    private final List<Rank> ranks = new ArrayList<>();
    private final Arena arena = Arena.ofShared();

    private final Set<Integer> raw;

    private TckJob(Job job, List<Transport> endpoints, PortalsConfig config, boolean initialise,
                   Set<Integer> raw) {
        this.job = job;
        this.endpoints = endpoints;
        this.raw = raw;
        for (int r = 0; r < job.size(); r++) {
            if (raw.contains(r)) {
                ranks.add(new Rank(this, null));
                continue;
            }
            Portals portals = Portals.create(job, endpoints.get(r), config);
            ranks.add(new Rank(this, portals));
        }
        if (initialise) {
            for (int r = 0; r < ranks.size(); r++) {
                if (!raw.contains(r)) {
                    ranks.get(r).portals().init();
                    ranks.get(r).initDefaultInterface();
                }
            }
        }
    }

    /**
     * The bare transport endpoint of a rank started with {@link Builder#raw(int)}: no Portals library
     * runs on it, so a test can send hand-made frames (and install its own handler with
     * {@link Transport#start}).
     */
    public Transport rawTransport(int r) {
        if (!raw.contains(r)) {
            throw new IllegalStateException("rank " + r + " runs a Portals library; start it with raw(" + r + ")");
        }
        return endpoints.get(r);
    }

    /** {@code size} ranks, each initialised with the default interface. */
    public static TckJob start(int size) {
        return builder(size).start();
    }

    public static Builder builder(int size) {
        return new Builder(size);
    }

    public Rank rank(int r) {
        return ranks.get(r);
    }

    public int size() {
        return ranks.size();
    }

    public Job job() {
        return job;
    }

    /** A nid that no process of this job has (one above the largest). */
    public int nidOutsideTheJob() {
        return job.peers().members().stream().mapToInt(m -> m.nid()).max().orElse(-1) + 1;
    }

    /** Shared memory for the test, freed when the job closes. */
    public MemorySegment allocate(long bytes) {
        return arena.allocate(Math.max(bytes, 1L)).asSlice(0, bytes);
    }

    /** {@code bytes} bytes holding {@code seed, seed+1, ...} (mod 256). */
    public MemorySegment pattern(long bytes, int seed) {
        MemorySegment s = allocate(bytes);
        for (long i = 0; i < bytes; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i));
        }
        return s;
    }

    /** Closes the transport of rank {@code r} as if its process died; peers are told. */
    public void kill(int r) {
        endpoints.get(r).close();
    }

    @Override
    public void close() {
        for (int r = 0; r < ranks.size(); r++) {
            if (raw.contains(r)) {
                continue;
            }
            try {
                ranks.get(r).portals().fini();
            } catch (RuntimeException e) {
                // already finalised by the test
            }
        }
        endpoints.forEach(Transport::close);
        arena.close();
    }

    /** Options for a job: per-rank uids, the library configuration, whether to initialise. */
    public static final class Builder {
        private final int size;
        private final Map<Integer, Integer> uids = new HashMap<>();
        private PortalsConfig config = PortalsConfig.DEFAULT;
        private boolean initialise = true;
        private @Nullable String transport;
        private final Set<Integer> raw = new HashSet<>();

        private Builder(int size) {
            this.size = size;
        }

        public Builder uid(int rank, int uid) {
            uids.put(rank, uid);
            return this;
        }

        public Builder config(PortalsConfig newConfig) {
            this.config = newConfig;
            return this;
        }

        /** Leaves every rank before {@code PtlInit}. */
        public Builder uninitialised() {
            this.initialise = false;
            return this;
        }

        /** Rank {@code r} gets no Portals library: see {@link TckJob#rawTransport(int)}. */
        public Builder raw(int r) {
            raw.add(r);
            return this;
        }

        public Builder transport(String name) {
            this.transport = name;
            return this;
        }

        public TckJob start() {
            Job.Builder b = Job.builder(size);
            uids.forEach(b::uid);
            Job job = b.build();
            String name = transport != null ? transport : TckTransport.name();
            try {
                List<Transport> endpoints = LocalJob.openAll(Transports.require(name), job, IdleMode.BACKOFF, Map.of());
                return new TckJob(job, endpoints, config, initialise, Set.copyOf(raw));
            } catch (TransportException e) {
                throw new IllegalStateException("cannot start a job on transport '" + name + "': " + e.getMessage(), e);
            }
        }
    }
}
