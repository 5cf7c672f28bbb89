package org.portals3j.isotach.internal.siu;

import java.util.Arrays;
import java.util.function.LongSupplier;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The token manager (our design, open point: the report leaves the token manager and switch interface units to hardware
 * specified elsewhere, Isotach report §1.1.3, pp. 1-2): issues TOKEN(T) within a window of the slowest SIU's
 * acknowledgement while time is needed, else once per idle tick, with signal and barrier effects due at T + diameter.
 */
final class TokenManager extends CacheLinePadding {
    /** Where an issued token goes: to every live host's SIU (guarded by the switch node's lock, like the manager). */
    interface TokenLinks {
        /**
         * {@code TOKEN(pulse)}, whose effect {@code bits} are due at {@code effectPulse}; acknowledge it at once if
         * asked.
         */
        void send(long pulse, int bits, long effectPulse, boolean ackNow);
    }

    /** A host cannot have more barrier executions pending than this (bits of {@link #applicationJoins}): hostile. */
    private static final int MAX_PENDING_JOINS = 63;

    private final int hosts;
    /** Per host, whether it is alive: shared with the switch node, which clears it when a host goes down. */
    private final boolean[] alive;
    private final int diameter;
    private final int tokenWindow;
    private final long idleTickNanos;
    private final LongSupplier nanoClock;
    private final TokenLinks links;

    /** The last token issued; -1 before the clock starts. */
    private long issued = -1;
    /**
     * When the idle tick next lets the manager issue a token nobody asked for ({@link Long#MAX_VALUE} before the clock
     * starts and when the idle tick is 0): every other reason to issue comes with an event that looks at once (a need,
     * a mark, a bs-marker, a peer going down), so until then the host's poll need not take the lock. Written under it.
     */
    private volatile long idleIssueAt = Long.MAX_VALUE;
    /** Per host: the last token its SIU has acknowledged (with a pulse mark). */
    private final long[] acknowledged;
    /**
     * The pulse logical time must reach for every host's work in flight: the maximum of what the SIUs reported in
     * marks and wake-ups. It only grows, so no report can be overtaken by an older one and time never stalls short of
     * a stamped isochron.
     */
    private long need = -1;
    private int pendingSignalBits;
    private int pendingBarrierBits;
    /** Per channel and host: barrier executions the host has joined that have not completed yet. */
    private final int[][] pendingJoins;
    /** Per channel and host: bit i set when the host's i-th pending participation was the application's. */
    private final long[][] applicationJoins;
    /** Completions of executions only automatic participants joined: not urgent (see {@link #lazyDue}). */
    private int lazyBarrierBits;
    /** When a token last carried lazy completions, and whether one ever did. */
    private long lastLazyNanos;
    private boolean lazyCarried;
    /** Set while issuing: its own host's mark must not re-enter (the issuing loop re-checks instead). */
    private boolean issuing;

    /**
     * @param alive        per host, whether it is alive (the caller clears an entry when a host goes down)
     * @param diameter     the logical distance effects are scheduled ahead (the network diameter)
     * @param tokenWindow  how many tokens may be ahead of the slowest acknowledgement
     * @param idleTickNanos the period of tokens nobody asked for; 0 issues as fast as the window allows
     */
    TokenManager(int hosts, boolean[] alive, int diameter, int tokenWindow, long idleTickNanos, LongSupplier nanoClock,
                 TokenLinks links) {
        this.hosts = hosts;
        this.alive = alive;
        this.diameter = diameter;
        this.tokenWindow = tokenWindow;
        this.idleTickNanos = idleTickNanos;
        this.nanoClock = nanoClock;
        this.links = links;
        this.acknowledged = new long[hosts];
        Arrays.fill(acknowledged, -1);
        this.pendingJoins = new int[2][hosts];
        this.applicationJoins = new long[2][hosts];
    }

    /** Starts the clock: issues TOKEN(0) unless it was issued already. */
    void start() {
        if (issued < 0) {
            issue();
        }
    }

    /**
     * A bs-marker from {@code source}: signal bits for the next token, barrier participations counted per channel.
     *
     * @return the participations refused (a host with {@value #MAX_PENDING_JOINS} executions pending is hostile)
     */
    int barrierSignalMarker(int source, int bits, boolean automatic) {
        int refused = 0;
        pendingSignalBits |= bits & 0xFC;
        for (int c = 0; c < 2; c++) {
            if ((bits & (1 << c)) != 0) {
                int n = pendingJoins[c][source];
                if (n >= MAX_PENDING_JOINS) {
                    refused++;
                    continue;
                }
                if (!automatic) {
                    applicationJoins[c][source] |= 1L << n;
                }
                pendingJoins[c][source] = n + 1;
            }
        }
        completeBarriers();
        maybeIssue(false);
        return refused;
    }

    /** Time must reach {@code pulse} for this rank's own SIU (it issues when the caller says so). */
    void need(long pulse) {
        need = Math.max(need, pulse);
    }

    /** A wake-up from a host's SIU: time must reach {@code pulse}, never beyond the horizon (contract item 4). */
    void wakeUp(long pulse) {
        need = Math.max(need, Math.min(pulse, issued + 256));
        maybeIssue(false);
    }

    /**
     * Host {@code source}'s pulse mark {@code pulse}; {@code seen} is the last token it has seen (its acknowledgement).
     */
    void mark(int source, long pulse, long seen) {
        // A mark ahead acknowledges only the token seen; a hostile seen cannot run ahead of its own mark.
        acknowledged[source] = Math.max(acknowledged[source], Math.min(seen, pulse + 1));
        maybeIssue(false);
    }

    /** A host went down (the caller cleared its entry in the alive array): barriers count only live hosts. */
    void hostDown() {
        completeBarriers();
        maybeIssue(false);
    }

    /**
     * Whether the idle tick lets a token be issued at {@code now}; read without the lock (a stale answer delays the
     * token to the next poll).
     */
    boolean idleTokenDue(long now) {
        long idleAt = idleIssueAt;
        return idleAt != Long.MAX_VALUE && now - idleAt >= 0;
    }

    /**
     * Issues what the manager owes now: tokens while work is in flight and the window allows, and one idle token when
     * {@code idleDue} (only the host's poll knows: it has read the clock, and every other caller is an event that makes
     * the manager busy or opens its window, so an idle token waits at most until the next poll).
     */
    void maybeIssue(boolean idleDue) {
        if (issued < 0 || issuing) {
            return;
        }
        issuing = true;
        try {
            issueWhileDue(idleDue);
        } finally {
            issuing = false;
        }
    }

    private void issueWhileDue(boolean idleDue) {
        while (true) {
            long slowest = slowestAcknowledgement();
            boolean busy = pendingSignalBits != 0 || pendingBarrierBits != 0 || issued < need;
            if (slowest == Long.MAX_VALUE) {
                return;
            }
            if (issued + 1 - slowest > tokenWindow) {
                return;
            }
            if (!busy && idleTickNanos > 0 && !idleDue) {
                return;
            }
            issue();
            if (!busy && idleTickNanos > 0) {
                return; // one idle tick at a time
            }
        }
    }

    private void issue() {
        long t = ++issued;
        long nowNanos = NanoClock.read(nanoClock);
        if (idleTickNanos > 0) {
            idleIssueAt = nowNanos + idleTickNanos;
        }
        boolean lazy = lazyDue(nowNanos);
        int bits = pendingSignalBits | pendingBarrierBits | (lazy ? lazyBarrierBits : 0);
        pendingSignalBits = 0;
        pendingBarrierBits = 0;
        if (lazy) {
            lazyBarrierBits = 0;
            lastLazyNanos = nowNanos;
            lazyCarried = true;
        }
        long at = t + diameter;
        if (bits != 0) {
            need = Math.max(need, at);
        }
        // The window is full after this token: the next one waits for acknowledgements, which must not linger.
        boolean ackNow = t + 1 - slowestAcknowledgement() > tokenWindow;
        links.send(t, bits, at, ackNow);
        completeBarriers(); // executions that were waiting behind the one just completed
    }

    /**
     * Completes every barrier execution all live hosts have joined (contract item 9). Hosts that have not registered a
     * channel join every execution automatically (Isotach report §3.5.1, pp. 18-20); an execution that only such hosts
     * joined completes too (a host waiting to register needs it, §6.5, pp. 50-54), but lazily: its bit
     * rides on a later token ({@link #lazyDue}) and does not make time advance faster, or unclaimed channels would keep
     * the clock busy.
     */
    private void completeBarriers() {
        for (int c = 0; c < 2; c++) {
            // One completion per channel per token: a second execution completing in the same pulse would merge into
            // the same bit and be lost. The next one completes once this one's token is out.
            while (((pendingBarrierBits | lazyBarrierBits) & (1 << c)) == 0) {
                boolean all = true;
                boolean any = false;
                boolean application = false;
                for (int h = 0; h < hosts; h++) {
                    if (alive[h]) {
                        any = true;
                        if (pendingJoins[c][h] == 0) {
                            all = false;
                        } else if ((applicationJoins[c][h] & 1) != 0) {
                            application = true;
                        }
                    }
                }
                if (!all || !any) {
                    break;
                }
                for (int h = 0; h < hosts; h++) {
                    if (pendingJoins[c][h] > 0) {
                        pendingJoins[c][h]--;
                        applicationJoins[c][h] >>>= 1;
                    }
                }
                if (application) {
                    pendingBarrierBits |= 1 << c;
                } else {
                    lazyBarrierBits |= 1 << c;
                }
            }
        }
    }

    /**
     * Whether the token being issued carries the pending lazy completions: at most once per idle tick, since every
     * host re-joins an unclaimed channel at once (Isotach report §3.5.1, pp. 18-20) and, carried by every token, that
     * cycle would put a bs-marker per host on the wire every few pulses of a busy job; at once, though, when some host
     * has already joined the channel's next execution (it waits behind this one), or when time runs free (idle tick 0).
     */
    private boolean lazyDue(long now) {
        if (lazyBarrierBits == 0) {
            return false;
        }
        long tick = idleTickNanos;
        if (tick == 0 || !lazyCarried || now - lastLazyNanos >= tick) {
            return true;
        }
        for (int c = 0; c < 2; c++) {
            if ((lazyBarrierBits & (1 << c)) != 0) {
                for (int h = 0; h < hosts; h++) {
                    if (alive[h] && pendingJoins[c][h] > 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The last token the slowest live SIU has acknowledged ({@link Long#MAX_VALUE} when none is alive). */
    long slowestAcknowledgement() {
        long slowest = Long.MAX_VALUE;
        for (int h = 0; h < hosts; h++) {
            if (alive[h]) {
                slowest = Math.min(slowest, acknowledged[h]);
            }
        }
        return slowest;
    }

    /** The last token issued (-1 before the clock starts). */
    long issued() {
        return issued;
    }

    /** Tokens issued so far. */
    long tokensIssued() {
        return issued + 1;
    }

    /** The pulse time must reach for the work in flight that the manager knows of. */
    long need() {
        return need;
    }
}
