package org.portals3j.lapi;

import java.util.Objects;

/**
 * {@code lapi_info_t} and the limits the man page leaves to the implementation (our choices on the
 * open points: header alignment, size limits, packet size, completion threads).
 * An immutable value; {@code with*} return a copy.
 *
 * @param completionThreads {@code num_compl_hndlr_thr}: threads that run normal completion handlers (default 1)
 * @param maxUhdr           {@code MAX_UHDR_SZ} (default 1024), a multiple of {@code uhdrAlign}
 * @param uhdrAlign         the word {@code uhdr_len} must be a multiple of (default 8, O-01)
 * @param maxData           {@code LAPI_MAX_MSG_SZ} (default {@code Integer.MAX_VALUE - 8}, O-02)
 * @param packetPayload     the largest {@code uhdr_len + udata_len} sent eagerly, as one packet (default 4096, O-03)
 * @param addressTableSize  {@code LOC_ADDRTBL_SZ} (default 256)
 * @param firstPortal       the first of the Portals table indices the layer uses (it uses two in a row)
 * @param interruptMode     {@code INTERRUPT_SET}: a dispatcher thread makes progress (default true)
 * @param errorListener     {@code err_hndlr}
 * @param resolver          addresses the context did not issue (the C binding's)
 * @param credits           flow control: how many messages (eager packets, rendezvous headers, Get requests) one
 *                          task may have unanswered at another; the receive ring is sized from it (default 64)
 */
public record LapiConfig(int completionThreads, int maxUhdr, int uhdrAlign, long maxData, int packetPayload,
                         int addressTableSize, int firstPortal, boolean interruptMode, AsyncErrorListener errorListener,
                         AddressResolver resolver, int credits) {
    /** Reports asynchronous errors on standard error. */
    public static final AsyncErrorListener STDERR_LISTENER = (context, type, srcTask, what, cause) ->
            System.err.println("LAPI task " + context.taskId() + " (" + type + ", message from task " + srcTask + "): "
                    + what
                    + (cause == null ? "" : ": " + cause));

    /** Our choices where the man pages leave a value open; portals 48 and 49. */
    public static final LapiConfig DEFAULT = new LapiConfig(1, 1024, 8, Integer.MAX_VALUE - 8, 4096, 256, 48, true,
            STDERR_LISTENER, AddressResolver.NONE, 64);

    /** The largest {@code packetPayload}: an eager packet travels in one staging buffer. */
    public static final int MAX_PACKET_PAYLOAD = 1 << 20;

    /** The largest {@code credits}: the receive ring of a task is sized from it. */
    public static final int MAX_CREDITS = 4096;

    public LapiConfig {
        Objects.requireNonNull(errorListener, "errorListener: give LapiConfig.STDERR_LISTENER for the default");
        Objects.requireNonNull(resolver, "resolver: give AddressResolver.NONE when C addresses are not used");
        require(completionThreads >= 1 && completionThreads <= 64,
                "completionThreads must be 1..64, not " + completionThreads);
        require(uhdrAlign == 4 || uhdrAlign == 8, "uhdrAlign must be 4 or 8 (a word or a doubleword, LAPI_Amsend"
                + " man page, Parameters), not " + uhdrAlign);
        require(maxUhdr >= 0 && maxUhdr % uhdrAlign == 0 && maxUhdr <= 65536,
                "maxUhdr must be a multiple of uhdrAlign (" + uhdrAlign + ") in 0..65536, not " + maxUhdr);
        require(maxData >= 0 && maxData <= Long.MAX_VALUE / 2, "maxData must be 0..2^62, not " + maxData);
        require(packetPayload >= maxUhdr && packetPayload <= MAX_PACKET_PAYLOAD,
                "packetPayload must be at least maxUhdr (" + maxUhdr + ") so a rendezvous header fits one packet, and"
                        + " at most " + MAX_PACKET_PAYLOAD + "; not " + packetPayload);
        require(addressTableSize >= 2 && addressTableSize <= 65536,
                "addressTableSize must be 2..65536 (indices 1..size-1 are usable), not " + addressTableSize);
        require(firstPortal >= 0, "firstPortal must be >= 0 and leave room for two portals, not " + firstPortal);
        require(credits >= 1 && credits <= MAX_CREDITS, "credits must be 1.." + MAX_CREDITS + ", not " + credits);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("LapiConfig: " + message);
        }
    }

    public LapiConfig withCompletionThreads(int n) {
        return new LapiConfig(n, maxUhdr, uhdrAlign, maxData, packetPayload, addressTableSize, firstPortal,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withMaxUhdr(int n) {
        return new LapiConfig(completionThreads, n, uhdrAlign, maxData, packetPayload, addressTableSize, firstPortal,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withUhdrAlign(int n) {
        return new LapiConfig(completionThreads, maxUhdr, n, maxData, packetPayload, addressTableSize, firstPortal,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withMaxData(long n) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, n, packetPayload, addressTableSize, firstPortal,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withPacketPayload(int n) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, n, addressTableSize, firstPortal,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withAddressTableSize(int n) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, packetPayload, n, firstPortal,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withFirstPortal(int n) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, packetPayload, addressTableSize, n,
                interruptMode, errorListener, resolver, credits);
    }

    public LapiConfig withInterruptMode(boolean on) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, packetPayload, addressTableSize,
                firstPortal, on, errorListener, resolver, credits);
    }

    public LapiConfig withErrorListener(AsyncErrorListener listener) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, packetPayload, addressTableSize,
                firstPortal, interruptMode, listener, resolver, credits);
    }

    public LapiConfig withResolver(AddressResolver r) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, packetPayload, addressTableSize,
                firstPortal, interruptMode, errorListener, r, credits);
    }

    public LapiConfig withCredits(int n) {
        return new LapiConfig(completionThreads, maxUhdr, uhdrAlign, maxData, packetPayload, addressTableSize,
                firstPortal, interruptMode, errorListener, resolver, n);
    }
}
