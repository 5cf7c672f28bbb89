package org.portals3j.isotach.internal.gc;

/**
 * Isotach signals at one host (Isotach report §6.4, pp. 47-50): channel ownership, the accumulator that
 * feeds bs-markers, and the filtering of signal bits arriving in end-of-pulse markers (package doc: channels and bits).
 */
public final class SignalTable {
    /** The facade's success code (C {@code SUCCESS}, Isotach report App. J, noniso.h, pp. 159-162). */
    public static final int SUCCESS = 0;
    /** The facade's failure code (C {@code FAILURE}, Isotach report App. J, noniso.h, pp. 159-162). */
    public static final int FAILURE = 1;

    /** {@code NUM_SIGNALS} (Isotach report §6.4.4, pp. 47-50). */
    public static final int NUM_SIGNALS = 6;
    /** {@code RESET_SIGNAL} (Isotach report §6.4.3, pp. 47-50): the mLayer's reset channel, wire bit 7. */
    public static final int RESET_SIGNAL = 5;
    /**
     * The mLayer's other signal channel (Isotach report App. J, api/iso_signal/locals.h, pp. 230-231); the report never
     * says what it is for.
     */
    public static final int MLAYER_SIGNAL = 0;
    /** The lowest channel the application can register (see "Channels (A11)"). */
    public static final int FIRST_APPLICATION_SIGNAL = 1;
    /** The highest channel the application can register (see "Channels (A11)"). */
    public static final int LAST_APPLICATION_SIGNAL = 4;
    /** The signal bits of a bits byte: bits 2-7 (bits 0-1 are barrier channels). */
    private static final int SIGNAL_BITS = 0xFC;

    private final Owner[] owners = {
        Owner.MLAYER, Owner.UNCLAIMED, Owner.UNCLAIMED, Owner.UNCLAIMED, Owner.UNCLAIMED, Owner.MLAYER
    };
    private int accumulator;
    private int resetCount;

    /**
     * A table in the initial state of {@code iso_signal_init} (Isotach report §6.4.5, pp. 47-50): empty accumulator, no
     * resets.
     */
    public SignalTable() {
    }

    /**
     * {@code iso_register_signal(c)} (Isotach report §6.4.5, pp. 47-50): claim an unclaimed channel for the application
     * (I-052).
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} if {@code channel} is outside 0-5 or already claimed (by the
     *     mLayer - channels 0 and 5 - or by an earlier registration)
     */
    public int register(int channel) {
        if (!inRange(channel) || owners[channel] != Owner.UNCLAIMED) {
            return FAILURE;
        }
        owners[channel] = Owner.APPLICATION;
        return SUCCESS;
    }

    /**
     * {@code iso_clear_signal(c)} (Isotach report §6.4.5, pp. 47-50): give an application channel back. Clearing a
     * channel the application does not hold - unclaimed or the mLayer's - is a successful no-op (Isotach report §6.4.5,
     * pp. 47-50; App. A.8.1, pp. 100-104; I-053).
     *
     * @return {@link #SUCCESS}; {@link #FAILURE} only if {@code channel} is outside 0-5
     */
    public int clear(int channel) {
        if (!inRange(channel)) {
            return FAILURE;
        }
        if (owners[channel] == Owner.APPLICATION) {
            owners[channel] = Owner.UNCLAIMED;
        }
        return SUCCESS;
    }

    /**
     * The ownership half of {@code iso_send_signal}'s checks (Isotach report §6.4.5, pp. 47-50; App. J, iso_signal.c,
     * pp. 231-235; I-054): the application may send only on a channel it registered. The other half - not between an
     * SOI and its EOI - is the engine's.
     *
     * @return {@link #SUCCESS} if the application may send on {@code channel}, else {@link #FAILURE}
     */
    public int checkSend(int channel) {
        return inRange(channel) && owners[channel] == Owner.APPLICATION ? SUCCESS : FAILURE;
    }

    /**
     * Signal channel {@code c}'s bit in a bits byte: {@code 1 << (c + 2)} (Isotach report App. J, iso_signal.c,
     * pp. 231-235); the reset channel is bit 7.
     *
     * @throws IllegalArgumentException if {@code channel} is outside 0-5
     */
    public static int wireBit(int channel) {
        if (!inRange(channel)) {
            throw new IllegalArgumentException(
                    "signal channel " + channel + " is out of range 0.." + (NUM_SIGNALS - 1));
        }
        return 1 << (channel + 2);
    }

    /**
     * {@code iso_send_signal(c)} without the mid-isochron check and without the enqueue (Isotach report §6.4.5,
     * pp. 47-50): after {@link #checkSend} passes, set the channel's bit in the accumulator. The engine then drains it
     * with {@link #takeAccumulated} as soon as {@code iso_send_buf} has room.
     *
     * @return {@link #SUCCESS}, or {@link #FAILURE} (accumulator unchanged) when {@link #checkSend} fails
     */
    public int accumulate(int channel) {
        if (checkSend(channel) != SUCCESS) {
            return FAILURE;
        }
        accumulator |= wireBit(channel);
        return SUCCESS;
    }

    /**
     * The bits the next bs-marker carries, and clear the accumulator ({@code enqueue_signals}, Isotach report §6.4.5,
     * pp. 47-50): the engine calls this only when it can enqueue the marker, so the bits are never lost.
     *
     * @return the pending bits byte, or 0 when no signal is pending (no marker to send)
     */
    public int takeAccumulated() {
        int bits = accumulator;
        accumulator = 0;
        return bits;
    }

    /** The pending bits without taking them (0 = none). */
    public int pending() {
        return accumulator;
    }

    /**
     * {@code iso_signal_notify(bits)} (Isotach report §6.4.5, pp. 47-50; App. J, iso_signal.c, pp. 231-235): the signal
     * bits of one EOP marker. The reset bit (7) is counted - see {@link #resetCount()}. Bits of channels the
     * application registered are returned in bs-notice form (channel c at bit c + 2, I-130) for one notice; bits of
     * unclaimed and mLayer channels are dropped (I-056). All application bits of one EOP come back together, so signals
     * that take effect in the same pulse make one notice (I-058, I-059). The application never sees the reset bit: it
     * is "implicitly registered" to resets (Isotach report App. A.8.1, pp. 100-104) in the sense that a reset after
     * initialisation shuts the layer down (Isotach report §6.4.5, pp. 47-50).
     *
     * @param endOfPulseSignalBits the EOP marker's bits byte; the barrier bits 0-1 and anything above bit 7 are ignored
     * @return the application's notice bits, 0 when there is nothing to report
     */
    public int notify(int endOfPulseSignalBits) {
        int bits = endOfPulseSignalBits & SIGNAL_BITS;
        if ((bits & wireBit(RESET_SIGNAL)) != 0 && resetCount < Integer.MAX_VALUE) {
            resetCount++;
        }
        int app = 0;
        for (int c = 0; c < NUM_SIGNALS; c++) {
            int bit = 1 << (c + 2);
            if ((bits & bit) != 0 && owners[c] == Owner.APPLICATION) {
                app |= bit;
            }
        }
        return app;
    }

    /**
     * How many reset bits have arrived ({@code reset_count}, Isotach report §6.4.3, pp. 47-50; §6.4.5, pp. 47-50). The
     * first one ends initialisation ({@code open_net} waits for it, Isotach report App. J, hostman.c, pp. 181-197); any
     * later one is a real reset, after which the layer must shut down (Isotach report §6.4.5, pp. 47-50, I-062) - the
     * engine throws {@code IsotachFatalError} and closes.
     */
    public int resetCount() {
        return resetCount;
    }

    /**
     * Who owns {@code channel}.
     *
     * @throws IllegalArgumentException if {@code channel} is outside 0-5
     */
    public Owner owner(int channel) {
        wireBit(channel);
        return owners[channel];
    }

    /** Owner and wire bit of {@code channel}, for diagnostics and failure messages. */
    public String describe(int channel) {
        if (!inRange(channel)) {
            return "signal channel " + channel + ": out of range (channels 0.." + (NUM_SIGNALS - 1)
                    + "; the application may register " + FIRST_APPLICATION_SIGNAL + ".." + LAST_APPLICATION_SIGNAL
                    + ")";
        }
        return "signal channel " + channel + ": owner " + owners[channel] + ", wire bit 0x"
                + Integer.toHexString(wireBit(channel)) + (channel == RESET_SIGNAL ? " (reset)" : "")
                + ((accumulator & wireBit(channel)) != 0 ? ", send pending" : "");
    }

    private static boolean inRange(int channel) {
        return channel >= 0 && channel < NUM_SIGNALS;
    }
}
