package org.portals3j.isotach.internal.noniso;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The module's counters. Incremented on the host thread and on transport threads, read from anywhere, hence
 * atomic; the hot paths do a handful of increments per message and allocate nothing.
 */
final class NonisoCounters {
    /** Messages send() accepted into send_buf. */
    static final int SENT = 0;
    /** send() calls that failed (argument errors, full send_buf, failed target). */
    static final int SEND_REJECTED = 1;
    /** Data-ring frames (data and read responses) handed to the transport. */
    static final int SHIPPED = 2;
    /** Data frames that arrived and were accepted into their slot. */
    static final int RECEIVED = 3;
    /** Messages receive() handed to the application. */
    static final int DELIVERED = 4;
    static final int READ_RESPONSE_SENT = 5;
    static final int READ_RESPONSE_RECEIVED = 6;
    /** Data-ring frames that carried a piggybacked credit (the head had changed, L2217). */
    static final int CREDIT_PIGGYBACK = 7;
    /** Explicit credit packets sent (threshold or answer to a request, L2190-2206). */
    static final int CREDIT_EXPLICIT = 8;
    static final int CREDIT_EXPLICIT_RECEIVED = 9;
    /** Credit requests sent after maxSendAttempts blocked approvals (L2219-2223). */
    static final int CREDIT_REQUEST = 10;
    static final int CREDIT_REQUEST_RECEIVED = 11;
    /** Approval passes that found the head of send_buf blocked on credit. */
    static final int FLOW_BLOCKED = 12;
    static final int BARRIER_SENT = 13;
    static final int BARRIER_RECEIVED = 14;
    /** Sends the transport completed with delivered == false. */
    static final int SEND_UNDELIVERED = 15;
    /** Sends the transport refused (endpoint closed). */
    static final int SHIP_FAILED = 16;
    /** Queued packets discarded because their target failed. */
    static final int DROP_PEER_FAILED = 17;
    /** Every hostile frame dropped, whatever the reason below. */
    static final int DROP_MALFORMED = 18;
    static final int DROP_KIND = 19;
    static final int DROP_VERSION = 20;
    static final int DROP_HEADER = 21;
    static final int DROP_SOURCE = 22;
    static final int DROP_SLOT = 23;
    static final int DROP_OVERSIZE = 24;
    static final int DROP_OVERRUN = 25;
    static final int DROP_CREDIT = 26;
    static final int DROP_BARRIER = 27;
    /** Data frames whose payload transfer failed (the slot is freed, nothing is delivered). */
    static final int DROP_DEPOSIT = 28;
    /** A descriptor the handoff queue could not take (cannot happen: the queue is sized from the credits). */
    static final int DROP_HANDOFF_FULL = 29;
    /** Completion tokens that named no shipped slot. */
    static final int TOKEN_UNKNOWN = 30;
    static final int PEER_FAILURE = 31;

    private static final String[] NAMES = {
        "noniso.sent", "noniso.sendRejected", "noniso.shipped", "noniso.received", "noniso.delivered",
        "readResponse.sent", "readResponse.received", "credit.piggyback", "credit.explicit",
        "credit.explicitReceived", "credit.request", "credit.requestReceived", "flow.blocked", "barrier.sent",
        "barrier.received", "send.undelivered", "send.shipFailed", "drop.peerFailed", "drop.malformed",
        "drop.kind", "drop.version", "drop.header", "drop.source", "drop.slot", "drop.oversize", "drop.overrun",
        "drop.credit", "drop.barrier", "drop.deposit", "drop.handoffFull", "token.unknown", "peer.failure",
    };

    private final AtomicLongArray values = new AtomicLongArray(NAMES.length);

    void inc(int counter) {
        values.incrementAndGet(counter);
    }

    /** Counts one hostile frame under its reason and under drop.malformed. */
    void malformed(int reason) {
        values.incrementAndGet(reason);
        values.incrementAndGet(DROP_MALFORMED);
    }

    long get(int counter) {
        return values.get(counter);
    }

    Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < NAMES.length; i++) {
            m.put(NAMES[i], values.get(i));
        }
        return m;
    }
}
