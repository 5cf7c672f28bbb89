package org.portals3j.transport.udp.internal.endpoint;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/** The endpoint's counters, by index; written by any thread, read as a snapshot by name. */
final class Counters {
    static final int DATAGRAMS_SENT = 0;
    static final int DATAGRAMS_RECEIVED = 1;
    static final int RETRANSMITS = 2;
    static final int FAST_RETRANSMITS = 3;
    static final int TIMEOUTS = 4;
    static final int ACKS_SENT = 5;
    static final int HEARTBEATS_SENT = 6;
    static final int MESSAGES_SENT = 7;
    static final int MESSAGES_RECEIVED = 8;
    static final int SEND_ERRORS = 9;
    static final int PEERS_FAILED = 10;
    static final int DROP_SHORT = 11;
    static final int DROP_MAGIC = 12;
    static final int DROP_VERSION = 13;
    static final int DROP_CRC = 14;
    static final int DROP_MAC = 15;
    static final int DROP_JOB = 16;
    static final int DROP_INCARNATION = 17;
    static final int DROP_DUPLICATE = 18;
    static final int DROP_WINDOW = 19;
    static final int DROP_MALFORMED = 20;
    static final int DROP_DEAD_PEER = 21;
    static final int SPURIOUS_RETRANSMITS = 22;
    static final int CWND_UNDOS = 23;
    static final int DROP_REPLAY = 24;
    static final int DEAD_NOTICES_SENT = 25;
    static final int DEAD_NOTICES_RECEIVED = 26;
    static final int HEARTBEATS_WHILE_STUCK = 27;
    static final int STALLS = 28;
    static final int SENDS_WAITED = 29;

    private static final String[] NAMES = {
        "datagrams.sent", "datagrams.received", "retransmits", "retransmits.fast", "timeouts", "acks.sent",
        "heartbeats.sent", "messages.sent", "messages.received", "send.errors", "peers.failed",
        "drop.short", "drop.magic", "drop.version", "drop.crc", "drop.mac", "drop.job", "drop.incarnation",
        "drop.duplicate", "drop.window", "drop.malformed", "drop.deadPeer", "retransmits.spurious", "cwnd.undos",
        "drop.replay", "deadNotices.sent", "deadNotices.received", "heartbeats.whileStuck", "stalls", "sends.waited",
    };

    private final AtomicLongArray values = new AtomicLongArray(NAMES.length);

    void add(int counter) {
        values.getAndIncrement(counter);
    }

    void add(int counter, long delta) {
        if (delta != 0) {
            values.getAndAdd(counter, delta);
        }
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
