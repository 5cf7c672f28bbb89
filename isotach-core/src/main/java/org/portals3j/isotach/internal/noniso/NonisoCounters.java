package org.portals3j.isotach.internal.noniso;

import java.util.Map;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * The module's counters, by index, in a {@link CounterRegistry}. Incremented on the host thread and on transport
 * threads (on inmem, every sender's), read from anywhere, hence shared (atomic) increments; allocation-free.
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
    /** Data-ring frames that carried a piggybacked credit (the head had changed, Isotach report §7.1.3, pp. 59-62). */
    static final int CREDIT_PIGGYBACK = 7;
    /** Explicit credit packets sent (threshold or answer to a request, Isotach report §7.1.3, pp. 59-62). */
    static final int CREDIT_EXPLICIT = 8;
    static final int CREDIT_EXPLICIT_RECEIVED = 9;
    /** Credit requests sent after maxSendAttempts blocked approvals (Isotach report §7.1.3, pp. 59-62). */
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

    /** Names (keys of {@code IsotachNet.counters()}, a public surface) and descriptions, by index. */
    private static final String[][] NAMES = {
        {"noniso.sent", "messages send() accepted into send_buf"},
        {"noniso.sendRejected", "send() calls that failed"},
        {"noniso.shipped", "data-ring frames handed to the transport"},
        {"noniso.received", "data frames accepted into their slot"},
        {"noniso.delivered", "messages receive() handed to the application"},
        {"readResponse.sent", "read responses sent"},
        {"readResponse.received", "read responses accepted"},
        {"credit.piggyback", "data-ring frames that carried a credit"},
        {"credit.explicit", "explicit credit packets sent"},
        {"credit.explicitReceived", "explicit credit packets received"},
        {"credit.request", "credit requests sent"},
        {"credit.requestReceived", "credit requests received"},
        {"flow.blocked", "approval passes blocked on credit"},
        {"barrier.sent", "barrier packets sent"},
        {"barrier.received", "barrier packets received"},
        {"send.undelivered", "sends the transport completed undelivered"},
        {"send.shipFailed", "sends the transport refused"},
        {"drop.peerFailed", "queued packets discarded: their target failed"},
        {"drop.malformed", "hostile frames dropped, whatever the reason"},
        {"drop.kind", "frames dropped: unknown kind"},
        {"drop.version", "frames dropped: wrong version"},
        {"drop.header", "frames dropped: bad header"},
        {"drop.source", "frames dropped: wrong source"},
        {"drop.slot", "frames dropped: a slot they may not use"},
        {"drop.oversize", "frames dropped: larger than a slot"},
        {"drop.overrun", "frames dropped: beyond the credits assigned"},
        {"drop.credit", "frames dropped: an impossible credit"},
        {"drop.barrier", "barrier packets dropped: a generation out of step"},
        {"drop.deposit", "data frames whose payload transfer failed"},
        {"drop.handoffFull", "descriptors the handoff queue could not take"},
        {"token.unknown", "completion tokens that named no shipped slot"},
        {"peer.failure", "peer failures heard from the transport"},
    };

    private final CounterRegistry registry = new CounterRegistry(NAMES.length);
    private final Counter[] counters = new Counter[NAMES.length];

    NonisoCounters() {
        for (int i = 0; i < NAMES.length; i++) {
            counters[i] = registry.counter(NAMES[i][0], NAMES[i][1]);
        }
    }

    void inc(int counter) {
        counters[counter].incrementShared();
    }

    /** Counts one hostile frame under its reason and under drop.malformed. */
    void malformed(int reason) {
        counters[reason].incrementShared();
        counters[DROP_MALFORMED].incrementShared();
    }

    long get(int counter) {
        return counters[counter].get();
    }

    Map<String, Long> snapshot() {
        return registry.snapshot();
    }
}
