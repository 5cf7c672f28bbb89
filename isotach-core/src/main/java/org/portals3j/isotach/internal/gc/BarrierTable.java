package org.portals3j.isotach.internal.gc;

import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.IsotachFatalError;

/**
 * Isotach barriers at one host (Isotach report §3.5.1, pp. 18-20; §6.5, pp. 50-54): each channel's owner,
 * mode and state, when this host sends a barrier bs-marker, and which completions reach the application (package doc:
 * the table).
 */
public final class BarrierTable {
    /** The facade's success code (C {@code SUCCESS}, Isotach report App. J, noniso.h, pp. 159-162). */
    public static final int SUCCESS = SignalTable.SUCCESS;
    /** The facade's failure code (C {@code FAILURE}, Isotach report App. J, noniso.h, pp. 159-162). */
    public static final int FAILURE = SignalTable.FAILURE;

    /** {@code NUM_BARRIERS} (Isotach report §6.5.4, pp. 50-54). */
    public static final int NUM_BARRIERS = 2;
    /**
     * {@code SHUTDOWN_BARRIER} (Isotach report §6.5.3, pp. 50-54): the mLayer's channel, used by {@code try_close_net}.
     */
    public static final int SHUTDOWN_BARRIER = 0;
    /** The one channel the application can register (Isotach report App. J, iso_barrier.c, pp. 224-229). */
    public static final int APPLICATION_BARRIER = 1;
    /** {@code MIN_BARRIER_COUNT} (Isotach report App. J, api/iso_barrier/locals.h, pp. 223-224): the TICK count. */
    public static final int MIN_BARRIER_COUNT = 2;
    /**
     * {@code MAX_BARRIER_COUNT} (Isotach report App. J, api/iso_barrier/locals.h, pp. 223-224): the MAX count, used by
     * unclaimed channels.
     */
    public static final int MAX_BARRIER_COUNT = 37;

    /** Where a barrier bs-marker goes: the engine's {@code iso_send_buf}, behind every earlier Isotach packet. */
    @FunctionalInterface
    public interface MarkerSink {
        /**
         * Put a bs-marker for barrier {@code channel} (bits byte {@code 1 << channel}) carrying
         * {@code barrierCount} into the Isotach send buffer.
         *
         * @return false when the buffer is full; the table then stays in SEND and retries on {@link #poll}
         */
        boolean enqueueBarrier(int channel, int barrierCount);
    }

    private final MarkerSink sink;
    private final int[] counts = new int[InternalBarrierMode.values().length];
    private final Owner[] owners = {Owner.MLAYER, Owner.UNCLAIMED};
    private final InternalBarrierMode[] modes = {InternalBarrierMode.STRONG, InternalBarrierMode.MAX};
    private final BarrierState[] states = {BarrierState.HOLDING, BarrierState.SEND};
    private final boolean[] mLayerDone = new boolean[NUM_BARRIERS];
    private boolean started;

    /**
     * A table in the initial state of {@code iso_barrier_init} (Isotach report §6.5.5, pp. 50-54).
     *
     * @param networkDiameter the emulated network diameter (the C derives it from route lengths, Isotach report App. J,
     *     iso_barrier.c, pp. 224-229; the engine from {@code IsotachConfig.networkDiameter}); 0..254 so that diameter +
     *     1 fits the count byte
     * @param sink where bs-markers go
     */
    public BarrierTable(int networkDiameter, MarkerSink sink) {
        if (networkDiameter < 0 || networkDiameter > 254) {
            throw new IllegalArgumentException("network diameter must be 0..254 (the barrier count byte holds"
                    + " diameter + 1), was " + networkDiameter);
        }
        this.sink = Objects.requireNonNull(sink, "sink");
        counts[InternalBarrierMode.WEAK.ordinal()] = networkDiameter + 1;
        // "because the send delta is zero" (Isotach report §6.5.4, pp. 50-54): send deltas are not used
        // (Isotach report §6.2.6, pp. 41-45), so STRONG = WEAK.
        counts[InternalBarrierMode.STRONG.ordinal()] = networkDiameter + 1;
        counts[InternalBarrierMode.TICK.ordinal()] = MIN_BARRIER_COUNT;
        counts[InternalBarrierMode.MAX.ordinal()] = MAX_BARRIER_COUNT;
    }

    /**
     * Barrier channel {@code c}'s bit in a bits byte: {@code 1 << c} (Isotach report App. J, iso_barrier.c,
     * pp. 224-229, I-130).
     */
    public static int wireBit(int channel) {
        if (!inRange(channel)) {
            throw new IllegalArgumentException(
                    "barrier channel " + channel + " is out of range 0.." + (NUM_BARRIERS - 1));
        }
        return 1 << channel;
    }

    /** {@code barrier_count[mode]}: the ticks a bs-marker of that mode carries (Isotach report §6.5.4, pp. 50-54). */
    public int barrierCount(InternalBarrierMode mode) {
        return counts[mode.ordinal()];
    }

    /**
     * Begin: called once, after {@code open_net}'s reset has come back (the first reset bit, Isotach report App. J,
     * hostman.c, pp. 181-197). Every channel in SEND - unclaimed channel 1, unless the application registered it
     * already - sends its initial participation (Isotach report §3.5.1, pp. 18-20; the C never does, A7). Until then no
     * marker is sent and completion bits are ignored (see the class comment).
     *
     * @throws IllegalStateException if called twice
     */
    public void start() {
        if (started) {
            throw new IllegalStateException("BarrierTable.start() called twice");
        }
        started = true;
        poll();
    }

    /** Whether {@link #start} has been called. */
    public boolean started() {
        return started;
    }

    /**
     * {@code iso_register_barrier(c, bmode)} (Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c, pp. 224-229;
     * I-063): the application claims an unclaimed channel. If this host still holds the credit (SEND: its unclaimed
     * participation has not left) it keeps it - HOLDING; if its unclaimed participation is out (NOT_HOLDING) the
     * channel waits for that execution in TRANSITION (Isotach report §3.5.1, pp. 18-20).
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} if {@code channel} is out of range, not unclaimed (the mLayer's
     *     channel 0, or already registered) or {@code mode} is null
     */
    public int register(int channel, @Nullable BarrierMode mode) {
        if (!inRange(channel) || owners[channel] != Owner.UNCLAIMED || mode == null) {
            return FAILURE;
        }
        owners[channel] = Owner.APPLICATION;
        modes[channel] = InternalBarrierMode.of(mode);
        // An unclaimed channel is only ever SEND or NOT_HOLDING (class invariant), so these are the two cases.
        states[channel] = states[channel] == BarrierState.NOT_HOLDING ? BarrierState.TRANSITION : BarrierState.HOLDING;
        return SUCCESS;
    }

    /**
     * {@code iso_clear_barrier(c)} (Isotach report §6.5.5, pp. 50-54; I-072): the application gives the channel back;
     * from now on this host takes part in the channel's executions automatically and reports none of them. A credit it
     * holds (HOLDING) is spent on an unclaimed participation at once; a participation the application already made
     * (NOT_HOLDING, SEND) or asked for (READY) continues as an unclaimed one. Clearing a channel the application
     * does not own is a successful no-op (Isotach report §6.5.5, pp. 50-54; App. A.8.1, pp. 100-104; the C fails,
     * Isotach report App. J, iso_barrier.c, pp. 224-229 - A9).
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} only if {@code channel} is out of range
     */
    public int clear(int channel) {
        if (!inRange(channel)) {
            return FAILURE;
        }
        if (owners[channel] != Owner.APPLICATION) {
            return SUCCESS;
        }
        owners[channel] = Owner.UNCLAIMED;
        modes[channel] = InternalBarrierMode.MAX;
        switch (states[channel]) {
            case TRANSITION, READY -> states[channel] = BarrierState.NOT_HOLDING;
            case HOLDING -> states[channel] = BarrierState.SEND;
            case SEND, NOT_HOLDING -> {
                // unchanged (Isotach report §6.5.5, pp. 50-54)
            }
        }
        if (states[channel] == BarrierState.SEND) {
            trySend(channel);
        }
        return SUCCESS;
    }

    /**
     * {@code iso_barrier(c, bmode)} (Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c, pp. 224-229; I-064,
     * I-065, I-070, I-071): the application participates. The engine has already refused calls made between an SOI and
     * its EOI (Isotach report §6.5.5, pp. 50-54).
     *
     * <p>HOLDING: the bs-marker is enqueued (or left in SEND for {@link #poll} when the send buffer is full - the
     * call still succeeds, the participation is on its way). TRANSITION: remembered (READY) and sent when the old
     * unclaimed execution completes.
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} if {@code channel} is out of range or not the application's,
     *     {@code mode} differs from the registered mode, or the previous execution is not locally complete
     *     (NOT_HOLDING, SEND, READY)
     */
    public int barrier(int channel, @Nullable BarrierMode mode) {
        if (!inRange(channel) || mode == null || owners[channel] != Owner.APPLICATION
                || modes[channel] != InternalBarrierMode.of(mode)) {
            return FAILURE;
        }
        return participate(channel);
    }

    /**
     * {@code iso_mLayer_barrier(SHUTDOWN_BARRIER, STRONG)} (Isotach report App. J, iso_barrier.c, pp. 224-229, called
     * by {@code try_close_net}, Isotach report App. J, hostman.c, pp. 181-197): the mLayer participates in its own
     * channel. Completion is seen through {@link #mLayerCompleted}.
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} if {@code channel} is out of range or not the mLayer's, or the
     *     mLayer's previous execution on it has not completed
     */
    public int mLayerBarrier(int channel) {
        if (!inRange(channel) || owners[channel] != Owner.MLAYER) {
            return FAILURE;
        }
        return participate(channel);
    }

    private int participate(int channel) {
        return switch (states[channel]) {
            case HOLDING -> {
                states[channel] = BarrierState.SEND;
                trySend(channel);
                yield SUCCESS;
            }
            case TRANSITION -> {
                states[channel] = BarrierState.READY;
                yield SUCCESS;
            }
            case SEND, NOT_HOLDING, READY -> FAILURE;
        };
    }

    /**
     * Whether an execution of the mLayer's {@code channel} has completed since the last call: true once per
     * completion, then false until the next (the channel is HOLDING again and {@link #mLayerBarrier} may start
     * another execution).
     *
     * @throws IllegalArgumentException if {@code channel} is out of range
     */
    public boolean mLayerCompleted(int channel) {
        wireBit(channel);
        boolean done = mLayerDone[channel];
        mLayerDone[channel] = false;
        return done;
    }

    /**
     * {@code iso_barrier_notify(bits)} (Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c, pp. 224-229): the
     * barrier bits of one EOP marker, each a completed execution of that channel. Moves each channel on as the class
     * comment's table says and returns the completions the application is told about: only those of executions it
     * started itself (NOT_HOLDING + APPLICATION). Completions of executions this host joined as unclaimed (including
     * TRANSITION/READY), and of the mLayer's, are masked (I-069, I-071, I-072).
     *
     * @param endOfPulseBarrierBits the EOP marker's bits byte; only bits 0-1 are looked at
     * @return the application's notice bits (channel c = bit {@code 1 << c}), 0 when there is nothing to report
     * @throws IsotachFatalError if a channel completes while this host has not participated in it (SEND or
     *     HOLDING): the token manager completed an execution without this host, which the report treats as
     *     fatal (removable assertion, Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c, pp. 224-229)
     */
    public int notify(int endOfPulseBarrierBits) {
        if (!started) {
            return 0;
        }
        int app = 0;
        for (int c = 0; c < NUM_BARRIERS; c++) {
            if ((endOfPulseBarrierBits & (1 << c)) == 0) {
                continue;
            }
            switch (states[c]) {
                case SEND, HOLDING -> throw new IsotachFatalError("barrier completion for a channel this host has"
                        + " not participated in: " + describe(c)
                        + " (the token manager must wait for every host)");
                case TRANSITION -> states[c] = BarrierState.HOLDING;
                case READY -> {
                    states[c] = BarrierState.SEND;
                    trySend(c);
                }
                case NOT_HOLDING -> {
                    switch (owners[c]) {
                        case APPLICATION -> {
                            states[c] = BarrierState.HOLDING;
                            app |= 1 << c;
                        }
                        case MLAYER -> {
                            states[c] = BarrierState.HOLDING;
                            mLayerDone[c] = true;
                        }
                        case UNCLAIMED -> {
                            states[c] = BarrierState.SEND;
                            trySend(c);
                        }
                    }
                }
            }
        }
        return app;
    }

    /**
     * {@code iso_barrier_poll()} (Isotach report §6.5.5, pp. 50-54): retry the enqueue of every channel in SEND (A7:
     * the C never calls it). Does nothing before {@link #start}.
     */
    public void poll() {
        if (!started) {
            return;
        }
        for (int c = 0; c < NUM_BARRIERS; c++) {
            if (states[c] == BarrierState.SEND) {
                trySend(c);
            }
        }
    }

    /** {@code enqueue_barrier(c)} (Isotach report §6.5.5, pp. 50-54): only in SEND, only after {@link #start}. */
    private void trySend(int channel) {
        if (started && sink.enqueueBarrier(channel, counts[modes[channel].ordinal()])) {
            states[channel] = BarrierState.NOT_HOLDING;
        }
    }

    /**
     * Who owns {@code channel}.
     *
     * @throws IllegalArgumentException if {@code channel} is out of range
     */
    public Owner owner(int channel) {
        wireBit(channel);
        return owners[channel];
    }

    /**
     * The channel's mode (MAX while unclaimed).
     *
     * @throws IllegalArgumentException if {@code channel} is out of range
     */
    public InternalBarrierMode mode(int channel) {
        wireBit(channel);
        return modes[channel];
    }

    /**
     * The channel's state.
     *
     * @throws IllegalArgumentException if {@code channel} is out of range
     */
    public BarrierState state(int channel) {
        wireBit(channel);
        return states[channel];
    }

    /** Owner, mode, state of {@code channel}, for diagnostics and failure messages. */
    public String describe(int channel) {
        if (!inRange(channel)) {
            return "barrier channel " + channel + ": out of range (channels 0.." + (NUM_BARRIERS - 1) + "; "
                    + SHUTDOWN_BARRIER + " is the mLayer's shutdown barrier, the application may register "
                    + APPLICATION_BARRIER + ")";
        }
        return "barrier channel " + channel + ": owner " + owners[channel] + ", mode " + modes[channel] + " (count "
                + counts[modes[channel].ordinal()] + "), state " + states[channel]
                + (states[channel] == BarrierState.SEND && started ? " (marker waiting for room in iso_send_buf)" : "")
                + (started ? "" : ", not started");
    }

    private static boolean inRange(int channel) {
        return channel >= 0 && channel < NUM_BARRIERS;
    }
}
