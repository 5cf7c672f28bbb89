package org.portals3j.isotach;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The layer's configuration: the hosts, their logical distances, the shared-memory layout, and the tunables of
 * the report's Appendix C (pp. 109-112). {@link #defaults()} needs nothing: the host count comes from the job,
 * host names are {@code node0}, {@code node1}, ..., every pair is one unit of logical distance apart, and
 * one 4096-word shared region is replicated on every host. A file in the spirit of Appendix E overrides any
 * of it ({@code IsotachConfigFile}).
 *
 * <p>Immutable; build with {@link #builder()} or derive with {@link #toBuilder()}.
 */
public final class IsotachConfig {
    /** The default stamp-batching period ({@link #stampBatchNanos}). */
    public static final long DEFAULT_STAMP_BATCH_NANOS = 16_000;

    private final List<String> hostNames;
    private final int defaultDistance;
    private final int @org.checkerframework.checker.nullness.qual.Nullable [][] distances;
    private final TmPlacement tmPlacement;
    private final int tokenWindow;
    private final long idleTickMicros;
    private final long stampBatchNanos;
    private final int maxPayload;
    private final int mbmVersion;
    private final int sendBufSize;
    private final int isoSendBufSize;
    private final int hitBufSize;
    private final int selfRefBufSize;
    private final int nonisoSlotsPerPeer;
    private final int isoCreditsPerPeer;
    private final double creditThreshold;
    private final double isoCreditThreshold;
    private final int maxSendAttempts;
    private final int bucketSize;
    private final int readCap;
    private final List<SharedRegion> sharedRegions;

    private IsotachConfig(Builder b) {
        this.hostNames = List.copyOf(b.hostNames);
        this.defaultDistance = b.defaultDistance;
        this.distances = b.distances == null ? null : deepCopy(b.distances);
        this.tmPlacement = b.tmPlacement;
        this.tokenWindow = b.tokenWindow;
        this.idleTickMicros = b.idleTickMicros;
        this.stampBatchNanos = b.stampBatchNanos;
        this.maxPayload = b.maxPayload;
        this.mbmVersion = b.mbmVersion;
        this.sendBufSize = b.sendBufSize;
        this.isoSendBufSize = b.isoSendBufSize;
        this.hitBufSize = b.hitBufSize;
        this.selfRefBufSize = b.selfRefBufSize;
        this.nonisoSlotsPerPeer = b.nonisoSlotsPerPeer;
        this.isoCreditsPerPeer = b.isoCreditsPerPeer;
        this.creditThreshold = b.creditThreshold;
        this.isoCreditThreshold = b.isoCreditThreshold;
        this.maxSendAttempts = b.maxSendAttempts;
        this.bucketSize = b.bucketSize;
        this.readCap = b.readCap;
        this.sharedRegions = b.sharedRegions == null ? List.of() : List.copyOf(b.sharedRegions);
        validate();
    }

    private static int[][] deepCopy(int[][] m) {
        int[][] c = new int[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }

    private void validate() {
        require(defaultDistance >= 1 && defaultDistance <= 64, "logical distance must be 1..64, was "
                + defaultDistance);
        require(tokenWindow >= 1 && tokenWindow <= 64, "token window must be 1..64, was " + tokenWindow);
        require(idleTickMicros >= 0, "idle tick must be >= 0 microseconds");
        require(stampBatchNanos >= 0, "stamp batch period must be >= 0 nanoseconds, was " + stampBatchNanos);
        require(maxPayload >= 1 && maxPayload <= 65536, "max payload must be 1..65536 bytes, was " + maxPayload);
        require(mbmVersion == 1 || mbmVersion == 2, "MBM version must be 1 or 2, was " + mbmVersion);
        require(sendBufSize >= 2 && isoSendBufSize >= 2 && hitBufSize >= 2 && selfRefBufSize >= 2,
                "send buffers need at least 2 slots");
        require(nonisoSlotsPerPeer >= 2 && isoCreditsPerPeer >= 2, "per-peer credits must be >= 2");
        require(creditThreshold > 0 && creditThreshold <= 1 && isoCreditThreshold > 0 && isoCreditThreshold <= 1,
                "credit thresholds are fractions in (0, 1]");
        require(maxSendAttempts >= 1, "max send attempts must be >= 1");
        require(bucketSize == 0 || bucketSize >= 2, "bucket size must be 0 (automatic) or >= 2, was " + bucketSize);
        require(readCap >= 1, "read cap must be >= 1");
        if (distances != null) {
            for (int i = 0; i < distances.length; i++) {
                require(distances[i].length == distances.length, "distance matrix must be square");
                for (int j = 0; j < distances.length; j++) {
                    int d = distances[i][j];
                    require(i == j ? d >= 0 : d >= 1 && d <= 64,
                            "logical distance " + i + "->" + j + " must be 1..64, was " + d);
                }
            }
        }
        // + 1: an SIU may mark one pulse ahead of its last token (SwitchNode, "Marking ahead").
        require(maxDistanceBound() + tokenWindow + 1 < 256,
                "logical distance + token window must stay below 255 (one-byte timestamps, Isotach report App. B.1,"
                        + " pp. 104-107, and the"
                        + " pulse an SIU may mark ahead)");
    }

    private int maxDistanceBound() {
        if (distances == null) {
            return defaultDistance;
        }
        int max = 1;
        for (int[] row : distances) {
            for (int d : row) {
                max = Math.max(max, d);
            }
        }
        return max;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The configuration a plain {@code portals run} uses. */
    public static IsotachConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.hostNames = new ArrayList<>(hostNames);
        b.defaultDistance = defaultDistance;
        b.distances = distances == null ? null : deepCopy(distances);
        b.tmPlacement = tmPlacement;
        b.tokenWindow = tokenWindow;
        b.idleTickMicros = idleTickMicros;
        b.stampBatchNanos = stampBatchNanos;
        b.maxPayload = maxPayload;
        b.mbmVersion = mbmVersion;
        b.sendBufSize = sendBufSize;
        b.isoSendBufSize = isoSendBufSize;
        b.hitBufSize = hitBufSize;
        b.selfRefBufSize = selfRefBufSize;
        b.nonisoSlotsPerPeer = nonisoSlotsPerPeer;
        b.isoCreditsPerPeer = isoCreditsPerPeer;
        b.creditThreshold = creditThreshold;
        b.isoCreditThreshold = isoCreditThreshold;
        b.maxSendAttempts = maxSendAttempts;
        b.bucketSize = bucketSize;
        b.readCap = readCap;
        b.sharedRegions = new ArrayList<>(sharedRegions);
        return b;
    }

    /** Host names by node id; empty means {@code node0 ... node(n-1)}. */
    public List<String> hostNames() {
        return hostNames;
    }

    /** The name of host {@code node} in a job of {@code hosts} hosts. */
    public String hostName(int node) {
        return node < hostNames.size() ? hostNames.get(node) : "node" + node;
    }

    /**
     * Logical distance from {@code from} to {@code to} (Isotach report §1.1.1, p. 1;
     * our choice, open point: the report does not define the distance's value): a message issued at pulse T is
     * delivered at T + distance. The distance of a host to itself is 0: self-messages never enter the network.
     */
    public int distance(int from, int to) {
        if (from == to) {
            return 0;
        }
        if (distances != null && from < distances.length && to < distances.length) {
            return distances[from][to];
        }
        return defaultDistance;
    }

    /** The largest distance between two distinct hosts of {@code hosts}: the emulated network diameter. */
    public int networkDiameter(int hosts) {
        int max = 1;
        for (int i = 0; i < hosts; i++) {
            for (int j = 0; j < hosts; j++) {
                if (i != j) {
                    max = Math.max(max, distance(i, j));
                }
            }
        }
        return max;
    }

    /** Whether an explicit distance matrix was given; its size must then equal the host count. */
    public int distanceMatrixSize() {
        return distances == null ? 0 : distances.length;
    }

    public TmPlacement tmPlacement() {
        return tmPlacement;
    }

    /** Tokens the token manager may have outstanding (issued but not passed by every SIU). */
    public int tokenWindow() {
        return tokenWindow;
    }

    /**
     * How often logical time advances when no host needs it to (I-144): the token manager issues a token at
     * least this often while it is polled. 0 = advance as fast as the window allows, always.
     */
    public long idleTickMicros() {
        return idleTickMicros;
    }

    /**
     * How often, at most, an SIU marks ahead and asks the token manager for a new pulse (see SwitchNode, "Stamp
     * batching"): isochrons it stamps in between share the pulse it asked for last, so a host streaming isochrons
     * costs the emulated hardware a pulse per batch instead of one per isochron. It costs a ping-pong nothing (an
     * isochron stamped after the host took a packet asks at once) nor a burst's end (the host's first poll without a
     * stamp asks). 0 = ask for every isochron. Default {@value #DEFAULT_STAMP_BATCH_NANOS} ns on every transport.
     * The period only paces a stream; why the default is what it is, with the measurements: bench/README.md.
     */
    public long stampBatchNanos() {
        return stampBatchNanos;
    }

    /** MAX_PAYLOAD_SIZE (Isotach report App. C, pp. 109-112). */
    public int maxPayload() {
        return maxPayload;
    }

    /** MBM_VER: 1 = no ordering, 2 = ordering and self-messages (Isotach report App. C, pp. 109-112). */
    public int mbmVersion() {
        return mbmVersion;
    }

    /** SEND_BUF_SIZE: noniso send buffer, packets. */
    public int sendBufSize() {
        return sendBufSize;
    }

    /** ISO_SEND_BUF_SIZE (and ORD_SEND_BUF_SIZE): Isotach send buffer, packets. */
    public int isoSendBufSize() {
        return isoSendBufSize;
    }

    /** HIT_BUF_SIZE: self-messages held for their isochron marker (Isotach report §6.2.4, pp. 41-45). */
    public int hitBufSize() {
        return hitBufSize;
    }

    /** self_ref_buf size: self-references of shared memory (Isotach report §4.1, pp. 26-30). */
    public int selfRefBufSize() {
        return selfRefBufSize;
    }

    /** Noniso receive slots a host reserves for each peer (ring size; at most size - 1 in flight). */
    public int nonisoSlotsPerPeer() {
        return nonisoSlotsPerPeer;
    }

    /**
     * Isotach credits (= ordered receive slots) a host grants each peer; N - 1 may be outstanding
     * (Isotach report §3.6.3, pp. 20-23).
     */
    public int isoCreditsPerPeer() {
        return isoCreditsPerPeer;
    }

    /** CREDIT_PACKET_THRESHOLD_PERCENTAGE (0.90, Isotach report App. J, processing/flow/locals.h, pp. 239-241). */
    public double creditThreshold() {
        return creditThreshold;
    }

    /**
     * ISO_CREDIT_PACKET_THRESHOLD_PERCENTAGE (0.50, Isotach report App. J, processing/iso_flow/locals.h, pp. 246-248).
     */
    public double isoCreditThreshold() {
        return isoCreditThreshold;
    }

    /** MAX_SEND_ATTEMPTS before a credit request (50 in the prose, Isotach report §7.1.2, pp. 59-62). */
    public int maxSendAttempts() {
        return maxSendAttempts;
    }

    /**
     * BUCKET_SIZE as configured: entries one pulse may hold at a host (Isotach report App. C, pp. 109-112), or 0 for
     * automatic.
     */
    public int bucketSize() {
        return bucketSize;
    }

    /**
     * The entries one pulse may hold at a host of a job of {@code hosts}: the configured {@link #bucketSize()}, or,
     * when that is 0 (the default), as many as the credits let arrive in one pulse, so that a correct job can
     * never overflow a bucket. The report's buckets were "protected only probabilistically" and overflow aborted
     * (Isotach report §3.6.3, pp. 20-23; §7.3.4, pp. 66-69); it names dynamic extension as the fix. Here: every remote
     * host holds at most {@code isoCreditsPerPeer - 1} unfreed packets towards this host (a packet's credit comes back
     * only after its pulse is delivered), and the local host adds at most one isochron marker per hit-buffer slot;
     * hence {@code (hosts - 1) * (isoCreditsPerPeer - 1) + hitBufSize}, and never less than the report's 256. Buckets
     * start small and grow up to this bound; beyond it an entry is still a fatal error (I-112), which only a
     * configured size below the bound or a hostile peer can cause.
     */
    public int bucketCapacity(int hosts) {
        if (bucketSize > 0) {
            return bucketSize;
        }
        long bound = (long) Math.max(0, hosts - 1) * (isoCreditsPerPeer - 1) + hitBufSize;
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(256, bound));
    }

    /**
     * read_cap: outstanding iso_reads a process may have (Isotach report App. A.6, pp. 99-100; the report gives no
     * value).
     */
    public int readCap() {
        return readCap;
    }

    /** The shared-memory layout; empty means one 4096-word region at address 0 on every host. */
    public List<SharedRegion> sharedRegions() {
        return sharedRegions;
    }

    /** The shared-memory layout for a job of {@code hosts} hosts, defaults filled in. */
    public List<SharedRegion> sharedRegions(int hosts) {
        if (!sharedRegions.isEmpty()) {
            return sharedRegions;
        }
        int[] all = new int[hosts];
        Arrays.setAll(all, i -> i);
        return List.of(new SharedRegion(0, 4096, all));
    }

    @Override
    public String toString() {
        return "IsotachConfig[hosts " + (hostNames.isEmpty() ? "from job" : hostNames) + ", distance "
                + (distances == null ? String.valueOf(defaultDistance) : "matrix") + ", tm " + tmPlacement
                + ", window " + tokenWindow + ", idle tick " + idleTickMicros + " us, stamp batch "
                + stampBatchNanos + " ns, max payload " + maxPayload
                + ", MBM " + mbmVersion + "]";
    }

    /** Builder with the defaults documented on each getter. */
    public static final class Builder {
        private List<String> hostNames = new ArrayList<>();
        private int defaultDistance = 1;
        private int @org.checkerframework.checker.nullness.qual.Nullable [][] distances;
        private TmPlacement tmPlacement = TmPlacement.IN_RANK;
        private int tokenWindow = 4;
        private long idleTickMicros = 1000;
        private long stampBatchNanos = DEFAULT_STAMP_BATCH_NANOS;
        private int maxPayload = 1024;
        private int mbmVersion = 2;
        private int sendBufSize = 1024;
        private int isoSendBufSize = 1024;
        private int hitBufSize = 512;
        private int selfRefBufSize = 256;
        private int nonisoSlotsPerPeer = 128;
        private int isoCreditsPerPeer = 128;
        private double creditThreshold = 0.90;
        private double isoCreditThreshold = 0.50;
        private int maxSendAttempts = 50;
        private int bucketSize = 0; // automatic: bucketCapacity(hosts)
        private int readCap = 64;
        private @org.checkerframework.checker.nullness.qual.Nullable List<SharedRegion> sharedRegions;

        private Builder() {
        }

        public Builder hostNames(List<String> names) {
            this.hostNames = new ArrayList<>(names);
            return this;
        }

        /** The logical distance between every pair of distinct hosts. */
        public Builder distance(int d) {
            this.defaultDistance = d;
            this.distances = null;
            return this;
        }

        /** A full matrix of logical distances (diagonal ignored). */
        public Builder distances(int[][] matrix) {
            this.distances = deepCopy(matrix);
            return this;
        }

        public Builder tmPlacement(TmPlacement placement) {
            this.tmPlacement = Objects.requireNonNull(placement);
            return this;
        }

        public Builder tokenWindow(int w) {
            this.tokenWindow = w;
            return this;
        }

        public Builder idleTickMicros(long micros) {
            this.idleTickMicros = micros;
            return this;
        }

        public Builder stampBatchNanos(long nanos) {
            this.stampBatchNanos = nanos;
            return this;
        }

        public Builder maxPayload(int bytes) {
            this.maxPayload = bytes;
            return this;
        }

        public Builder mbmVersion(int version) {
            this.mbmVersion = version;
            return this;
        }

        public Builder sendBufSize(int slots) {
            this.sendBufSize = slots;
            return this;
        }

        public Builder isoSendBufSize(int slots) {
            this.isoSendBufSize = slots;
            return this;
        }

        public Builder hitBufSize(int slots) {
            this.hitBufSize = slots;
            return this;
        }

        public Builder selfRefBufSize(int slots) {
            this.selfRefBufSize = slots;
            return this;
        }

        public Builder nonisoSlotsPerPeer(int slots) {
            this.nonisoSlotsPerPeer = slots;
            return this;
        }

        public Builder isoCreditsPerPeer(int credits) {
            this.isoCreditsPerPeer = credits;
            return this;
        }

        public Builder creditThreshold(double fraction) {
            this.creditThreshold = fraction;
            return this;
        }

        public Builder isoCreditThreshold(double fraction) {
            this.isoCreditThreshold = fraction;
            return this;
        }

        public Builder maxSendAttempts(int attempts) {
            this.maxSendAttempts = attempts;
            return this;
        }

        /** A fixed BUCKET_SIZE; 0 (the default) sizes buckets by {@link IsotachConfig#bucketCapacity}. */
        public Builder bucketSize(int entries) {
            this.bucketSize = entries;
            return this;
        }

        public Builder readCap(int reads) {
            this.readCap = reads;
            return this;
        }

        public Builder sharedRegions(List<SharedRegion> regions) {
            this.sharedRegions = new ArrayList<>(regions);
            return this;
        }

        public IsotachConfig build() {
            return new IsotachConfig(this);
        }
    }
}
