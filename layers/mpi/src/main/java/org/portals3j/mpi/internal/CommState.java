package org.portals3j.mpi.internal;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What one rank knows of one communicator: its context id on the engine, its group (the job rank of each of its
 * ranks), this process's rank in it, its error handler and name. The handler and name may be set from any thread.
 *
 * <p>Of an intercommunicator, the group {@link #size()} and {@link #jobRank(int)} describe is the <em>remote</em>
 * one (the ranks point-to-point and the collectives' messages name, MPI 4.1 section 7.6), {@link #rank()} is this
 * process's rank in the local group, and {@link #localGroup()} is a hidden intracommunicator of the local group in
 * its own context, for the intra-group steps of the collectives ({@link InterCollectives}).
 */
public final class CommState {
    private final PointToPoint engine;
    private final int context;
    private final int[] jobRanks;
    private final int rank;
    private final @Nullable CommState localGroup;
    private volatile ErrorHandling errorHandling = ErrorHandling.FATAL;
    private volatile String name;
    /** Nonblocking collectives started on this communicator by this rank (their tags: {@link CollectiveSchedule}). */
    private int nonblockingCollectives;

    /**
     * @param context  the point-to-point context id (even; the next odd id is kept for the collectives)
     * @param jobRanks the job rank of each rank of the communicator
     */
    public CommState(PointToPoint engine, int context, int[] jobRanks, String name) {
        this(engine, context, jobRanks, null, name);
    }

    /**
     * An intercommunicator's state: point-to-point in {@code context} to the job ranks {@code remote}.
     *
     * @param localGroup the local group, in a context of its own
     */
    static CommState inter(PointToPoint engine, int context, int[] remote, CommState localGroup, String name) {
        return new CommState(engine, context, remote, localGroup, name);
    }

    private CommState(PointToPoint engine, int context, int[] jobRanks, @Nullable CommState localGroup,
            String name) {
        if (context < 0 || context > MatchBits.MAX_CONTEXT) {
            throw new IllegalArgumentException("context " + context);
        }
        this.engine = engine;
        this.context = context;
        this.jobRanks = jobRanks.clone();
        int me = -1;
        for (int r = 0; r < jobRanks.length; r++) {
            if (jobRanks[r] == engine.rank()) {
                me = r;
            }
        }
        this.rank = localGroup == null ? me : localGroup.rank();
        this.localGroup = localGroup;
        this.name = name;
    }

    public PointToPoint engine() {
        return engine;
    }

    public int context() {
        return context;
    }

    public int size() {
        return jobRanks.length;
    }

    /** This process's rank in the communicator. */
    public int rank() {
        return rank;
    }

    /** The job rank of rank {@code r} of the communicator. */
    public int jobRank(int r) {
        return jobRanks[r];
    }

    /** The job ranks of the group, in communicator rank order (a copy). */
    public int[] jobRanks() {
        return Arrays.copyOf(jobRanks, jobRanks.length);
    }

    // ---- intercommunicators --------------------------------------------------------------------

    public boolean isInter() {
        return localGroup != null;
    }

    /** An intercommunicator's local group (a hidden intracommunicator); null for an intracommunicator. */
    public @Nullable CommState localGroup() {
        return localGroup;
    }

    /** The size of the group this process is in (the local group of an intercommunicator). */
    public int localSize() {
        CommState local = localGroup;
        return local == null ? size() : local.size();
    }

    /** The job ranks of the group this process is in, in rank order (a copy). */
    public int[] localJobRanks() {
        CommState local = localGroup;
        return local == null ? jobRanks() : local.jobRanks();
    }

    public ErrorHandling errorHandling() {
        return errorHandling;
    }

    public void setErrorHandling(ErrorHandling handling) {
        this.errorHandling = handling;
    }

    public String name() {
        return name;
    }

    public void setName(String newName) {
        this.name = newName;
    }

    // ---- communicator extras: agreements, info hints, attributes (mpi-java-api.md sections 2.6, 2.7) ----------

    /** Agreements on new context ids started on this communicator, in call order ({@link ContextAgreement}). */
    private final AtomicInteger agreements = new AtomicInteger();
    private volatile Map<String, String> hints = Map.of();
    private final Attributes attributes = new Attributes();
    /** Whether the predefined attributes are cached here: on COMM_WORLD and what {@code dup} made of it. */
    private volatile boolean predefinedAttributes;

    /** The number of the next agreement started on this communicator. */
    int nextAgreement() {
        return agreements.getAndIncrement();
    }

    /** The info hints set on this communicator ({@code setInfo}, {@code dupWithInfo}, inherited by {@code dup}). */
    public Map<String, String> hints() {
        return hints;
    }

    public void setHints(Map<String, String> newHints) {
        this.hints = Collections.unmodifiableMap(new LinkedHashMap<>(newHints));
    }

    /** The attributes cached on this communicator. */
    public Attributes attributes() {
        return attributes;
    }

    /** Whether {@code getAttr} of a predefined key gives its value here (otherwise null). */
    public boolean hasPredefinedAttributes() {
        return predefinedAttributes || context == MpiProcess.WORLD_CONTEXT;
    }

    /** What {@code dup} carries over: the hints, the attributes, the predefined attributes; taken at the call. */
    record Cached(Map<String, String> hints, Attributes attributes, boolean predefined) {
    }

    Cached cached() {
        Attributes copy = new Attributes();
        attributes.copyTo(copy);
        return new Cached(hints, copy, hasPredefinedAttributes());
    }

    /** Takes what {@code dup} carried over from the parent. */
    void adopt(Cached from) {
        hints = from.hints();
        predefinedAttributes = from.predefined();
        from.attributes().copyTo(attributes);
    }

    // ---- nonblocking collectives ----------------------------------------------------------------

    /** The number of the next nonblocking collective this rank starts on the communicator (0, 1, ...). */
    public synchronized int nextNonblockingCollective() {
        return nonblockingCollectives++;
    }
}
