package org.portals3j.transport.udp.internal.endpoint;

import java.util.Map;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * The endpoint's counters, by index, in a {@link CounterRegistry}: the sending side's counted by any thread
 * ({@link #add}), the receive path's by the thread holding it ({@link #addOnReceivePath}); read as a snapshot by name.
 */
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

    /** Names (the keys of {@code Transport.counters()}, a public surface) and descriptions, by index. */
    private static final String[][] NAMES = {
        {"datagrams.sent", "datagrams handed to the socket"},
        {"datagrams.received", "datagrams taken off the socket, before any check"},
        {"retransmits", "fragments sent again (fast or on timeout)"},
        {"retransmits.fast", "fragments sent again because RACK found them lost"},
        {"timeouts", "retransmission timeouts"},
        {"acks.sent", "standalone acknowledgements (and BYEs) sent"},
        {"heartbeats.sent", "heartbeats sent by the receive path"},
        {"messages.sent", "messages queued to a peer"},
        {"messages.received", "messages deposited whole (or failed) from a peer"},
        {"send.errors", "datagrams the socket refused"},
        {"peers.failed", "peers declared dead"},
        {"drop.short", "datagrams dropped: shorter than a header"},
        {"drop.magic", "datagrams dropped: wrong magic"},
        {"drop.version", "datagrams dropped: wrong wire version"},
        {"drop.crc", "datagrams dropped: bad CRC"},
        {"drop.mac", "datagrams dropped: bad MAC"},
        {"drop.job", "datagrams dropped: another job"},
        {"drop.incarnation", "datagrams dropped: another incarnation"},
        {"drop.duplicate", "data datagrams dropped: received already"},
        {"drop.window", "data datagrams dropped: outside the receive window"},
        {"drop.malformed", "datagrams dropped: a field out of range, or a receive that failed"},
        {"drop.deadPeer", "datagrams dropped: from a peer declared dead"},
        {"retransmits.spurious", "retransmissions the peer had received already"},
        {"cwnd.undos", "congestion window cuts undone"},
        {"drop.replay", "datagrams dropped: replayed (datagram counter seen or too old)"},
        {"deadNotices.sent", "DEAD_NOTICEs sent: a peer this rank declared dead was told so"},
        {"deadNotices.received", "DEAD_NOTICEs received: a peer had declared this rank dead"},
        {"heartbeats.whileStuck", "heartbeats the timer thread sent while the receive path was stuck"},
        {"stalls", "times the receive path did not run for longer than its longest sleep"},
        {"sends.waited", "sends that waited for room in a peer's queue"},
    };

    private final CounterRegistry registry = new CounterRegistry(NAMES.length);
    private final Counter[] counters = new Counter[NAMES.length];

    Counters() {
        for (int i = 0; i < NAMES.length; i++) {
            counters[i] = registry.counter(NAMES[i][0], NAMES[i][1]);
        }
    }

    /** Any thread (the sending side, under a peer's lock): adds one atomically. */
    void add(int counter) {
        counters[counter].incrementShared();
    }

    /** Any thread: adds {@code delta} atomically. */
    void add(int counter, long delta) {
        if (delta != 0) {
            counters[counter].addShared(delta);
        }
    }

    /** The thread holding the receive path (its lock orders the writers): adds one, single-writer. */
    void addOnReceivePath(int counter) {
        counters[counter].increment();
    }

    long get(int counter) {
        return counters[counter].get();
    }

    Map<String, Long> snapshot() {
        return registry.snapshot();
    }
}
