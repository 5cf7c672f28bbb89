package org.portals3j.transport.udp;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.AesCmacMac;
import org.portals3j.transport.udp.internal.wire.AesPmacMac;
import org.portals3j.transport.udp.internal.wire.AesGcmMac;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.Crc32cOnly;
import org.portals3j.transport.udp.internal.wire.GmacMac;
import org.portals3j.transport.udp.internal.wire.HmacSha256Mac;

/**
 * The options of the {@code udp} transport ({@code EndpointConfig.options()}, keys {@code udp.*}): this
 * class is the user documentation. An unknown {@code udp.*} key or a bad value makes opening the
 * endpoint fail with a {@link TransportException} that lists the valid keys. Keys of other transports
 * are ignored.
 *
 * <p>Every rank of a job should be given the same values (the window and datagram size in particular).
 */
public final class UdpOptions {
    /**
     * Address to bind and publish. Default: the address this process reached the job's rendezvous from (so
     * a job placed across hosts by Slurm or Open MPI works without it), or {@value #DEFAULT_HOST} when the
     * rendezvous is in-JVM. Set it to choose another interface.
     */
    public static final String HOST = "udp.host";
    /**
     * Base port: rank {@code r} binds {@code udp.port + r}, so that one setting serves every rank of a job,
     * several to a host; {@code 0} (default) takes any free port (peers learn it through the rendezvous).
     */
    public static final String PORT = "udp.port";
    /**
     * Largest datagram, in bytes, header ({@value DatagramHeader#LENGTH} bytes) included; 512 to 65507.
     * Default {@value #DEFAULT_DATAGRAM_SIZE}: loopback's MTU is 64 KiB, so nothing fragments, and the fewest
     * datagrams means the fewest system calls (docs/udp-notes.md). For a 1500-byte MTU use 1472
     * (1348 payload bytes per datagram), for a 9000-byte MTU 8972 (8848): larger datagrams are
     * fragmented by IP, and one lost IP fragment loses the datagram.
     */
    public static final String DATAGRAM_SIZE = "udp.datagramSize";
    /** Datagrams in flight per peer, and reorder slots per peer at the receiver. Default {@value #DEFAULT_WINDOW}. */
    public static final String WINDOW = "udp.window";
    /**
     * A heartbeat goes to a peer nothing else was sent to for this long. Default {@value #DEFAULT_HEARTBEAT_MILLIS} ms.
     */
    public static final String HEARTBEAT_MILLIS = "udp.heartbeatMillis";
    /**
     * A peer heard nothing valid from for this long is declared dead. Default
     * {@value #DEFAULT_PEER_TIMEOUT_MILLIS} ms: a stop-the-world GC pause, a debugger or a SIGSTOP of a few
     * seconds must not kill a job, and fifteen heartbeats lost in a row do not happen on a working network.
     * A closed peer says BYE and is known dead at once; only crashes wait for the timeout.
     */
    public static final String PEER_TIMEOUT_MILLIS = "udp.peerTimeoutMillis";
    /**
     * Smallest retransmission timeout, microseconds. Default {@value #DEFAULT_RTO_MIN_MICROS}: a loopback
     * round trip is microseconds, but the time an acknowledgement waits behind a full receive window of
     * 64 KB datagrams is milliseconds, and a shorter minimum times out spuriously (docs/udp-notes.md). It is
     * also the least the RTO adds to the smoothed round trip (RTO = SRTT + max(this, 4 RTTVAR)), so that a steady
     * but long round trip (a delayed network) does not bring the timer down to the round trip itself. Losses are
     * repaired by time-based loss detection (RACK, see the package documentation) long before this fires.
     */
    public static final String RTO_MIN_MICROS = "udp.rtoMinMicros";
    /** Largest retransmission timeout (the back-off cap), milliseconds. Default {@value #DEFAULT_RTO_MAX_MILLIS}. */
    public static final String RTO_MAX_MILLIS = "udp.rtoMaxMillis";
    /**
     * A standalone acknowledgement goes out once received data is unacknowledged this long and the socket
     * is drained (data going the other way carries acknowledgements for free). Default
     * {@value #DEFAULT_ACK_DELAY_MICROS} µs.
     */
    public static final String ACK_DELAY_MICROS = "udp.ackDelayMicros";
    /**
     * Datagram authentication: {@code auto} (default: AES-PMAC on every datagram, keyed with a key derived from
     * the job key), {@code aes-pmac}, {@code aes-cmac},
     * {@code hmac-sha256}, {@code aes-gcm} or {@code gmac} (one algorithm for every datagram, keyed with
     * the job key), or {@code crc32c}: <b>no authentication</b>, a CRC32C against corruption only, for private,
     * trusted networks; anyone who can send to the job's ports can then inject, alter or replay datagrams into
     * the job. {@code crc32c} is refused unless {@link #ALLOW_UNAUTHENTICATED} is {@code true} as well.
     */
    public static final String MAC = "udp.mac";
    /**
     * {@code true} to accept {@code udp.mac=crc32c}, saying that the network is private and trusted: every host
     * that can reach the job's ports is trusted with the job's data and its control. Default {@code false}; on its
     * own it changes nothing.
     */
    public static final String ALLOW_UNAUTHENTICATED = "udp.allowUnauthenticated";
    /**
     * Messages to one peer not yet acknowledged (queued or in flight) beyond which {@code send()} from an
     * application thread waits for room. Default {@value #DEFAULT_SEND_QUEUE_MESSAGES}. See "Backpressure" in the
     * package documentation.
     */
    public static final String SEND_QUEUE_MESSAGES = "udp.sendQueueMessages";
    /**
     * Payload bytes of the messages to one peer not yet acknowledged beyond which {@code send()} from an
     * application thread waits for room (a message larger than this goes alone). Default 64 MiB: four times
     * what the largest window of 64 KB datagrams holds in flight, so a stream never waits for want of queued data.
     */
    public static final String SEND_QUEUE_BYTES = "udp.sendQueueBytes";
    /**
     * How long {@code start()} waits for every peer's address. Default {@value #DEFAULT_RENDEZVOUS_TIMEOUT_MILLIS} ms.
     */
    public static final String RENDEZVOUS_TIMEOUT_MILLIS = "udp.rendezvousTimeoutMillis";
    /**
     * How the socket is driven: {@code native} (direct system calls through FFM: {@code recv}, {@code sendto},
     * {@code poll}; IPv4 on 64-bit Linux, with native access enabled for this module), {@code channel} (the JDK's
     * {@code DatagramChannel} and a {@code Selector}), or {@code auto} (default: {@code native} where it can be used,
     * else {@code channel}, silently). {@code native} where it cannot be used fails, saying why.
     */
    public static final String IO = "udp.io";
    /** Fault injection (tests, benchmarks): probability that a received datagram is lost. Default 0. */
    public static final String FAULT_LOSS = "udp.fault.loss";
    /** Probability that a received datagram is delivered twice. Default 0. */
    public static final String FAULT_DUPLICATE = "udp.fault.duplicate";
    /** Probability that a received datagram is held back behind the next one. Default 0. */
    public static final String FAULT_REORDER = "udp.fault.reorder";
    /** Probability that a received datagram has one bit flipped. Default 0. */
    public static final String FAULT_CORRUPT = "udp.fault.corrupt";
    /** Seed of the fault injector's random numbers. Default 1. */
    public static final String FAULT_SEED = "udp.fault.seed";
    /**
     * Fixed delay, microseconds, added to every received datagram before the endpoint sees it (a round trip
     * between two endpoints that both delay pays it twice). Default 0. Delayed datagrams wait in a bounded
     * delay line ({@link #FAULT_DELAY_QUEUE}) and come out when due even if nothing else arrives.
     */
    public static final String FAULT_DELAY_MICROS = "udp.fault.delayMicros";
    /**
     * Jitter, microseconds: each datagram's delay is drawn uniformly from {@code [delay - jitter, delay +
     * jitter]} (at most {@link #FAULT_DELAY_MICROS}); as with Linux netem, a datagram given a shorter delay
     * overtakes the ones before it. Default 0.
     */
    public static final String FAULT_JITTER_MICROS = "udp.fault.jitterMicros";
    /**
     * Probability that a received datagram is delayed a further {@link #FAULT_LATE_MICROS}, so that the
     * datagrams arriving after it overtake it (reordering at a distance; {@link #FAULT_REORDER} swaps
     * neighbours). Default 0.
     */
    public static final String FAULT_LATE = "udp.fault.late";
    /** How much further a late datagram is delayed, microseconds. Default {@value #DEFAULT_FAULT_LATE_MICROS}. */
    public static final String FAULT_LATE_MICROS = "udp.fault.lateMicros";
    /**
     * Most datagrams the delay line holds; one arriving when it is full is dropped and counted
     * ({@code fault.delayLineDrops}), as a router drops at a full queue. Default
     * {@value #DEFAULT_FAULT_DELAY_QUEUE}.
     */
    public static final String FAULT_DELAY_QUEUE = "udp.fault.delayQueue";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_DATAGRAM_SIZE = 65000;
    public static final int DEFAULT_WINDOW = 256;
    public static final int DEFAULT_HEARTBEAT_MILLIS = 1_000;
    public static final int DEFAULT_PEER_TIMEOUT_MILLIS = 15_000;
    public static final int DEFAULT_RTO_MIN_MICROS = 10_000;
    public static final int DEFAULT_RTO_MAX_MILLIS = 1_000;
    public static final int DEFAULT_ACK_DELAY_MICROS = 20;
    public static final int DEFAULT_RENDEZVOUS_TIMEOUT_MILLIS = 60_000;
    public static final int DEFAULT_FAULT_LATE_MICROS = 10_000;
    public static final int DEFAULT_FAULT_DELAY_QUEUE = 1024;
    public static final int DEFAULT_SEND_QUEUE_MESSAGES = 4096;
    public static final long DEFAULT_SEND_QUEUE_BYTES = 64L << 20;
    public static final String IO_AUTO = "auto";
    public static final String IO_NATIVE = "native";
    public static final String IO_CHANNEL = "channel";

    /** Every key this transport understands. */
    public static final List<String> KEYS = List.of(HOST, PORT, DATAGRAM_SIZE, WINDOW, HEARTBEAT_MILLIS,
            PEER_TIMEOUT_MILLIS, RTO_MIN_MICROS, RTO_MAX_MILLIS, ACK_DELAY_MICROS, MAC, ALLOW_UNAUTHENTICATED,
            RENDEZVOUS_TIMEOUT_MILLIS,
            FAULT_LOSS, FAULT_DUPLICATE, FAULT_REORDER, FAULT_CORRUPT, FAULT_SEED, FAULT_DELAY_MICROS,
            FAULT_JITTER_MICROS, FAULT_LATE, FAULT_LATE_MICROS, FAULT_DELAY_QUEUE, SEND_QUEUE_MESSAGES,
            SEND_QUEUE_BYTES, IO);

    private UdpOptions() {
    }

    /**
     * The parsed options.
     *
     * @param mac {@code auto}, {@code aes-pmac}, {@code aes-cmac}, {@code hmac-sha256}, {@code aes-gcm}, {@code gmac}
     *            or {@code crc32c} (only with {@link #ALLOW_UNAUTHENTICATED})
     * @param io {@code auto}, {@code native} or {@code channel} ({@link #IO})
     */
    public record Settings(String host, int port, int datagramSize, int window, long heartbeatMillis,
                           long peerTimeoutMillis, long rtoMinMicros, long rtoMaxMillis, long ackDelayMicros,
                           String mac, long rendezvousTimeoutMillis, double faultLoss, double faultDuplicate,
                           double faultReorder, double faultCorrupt, long faultSeed, long faultDelayMicros,
                           long faultJitterMicros, double faultLate, long faultLateMicros, int faultDelayQueue,
                           long sendQueueMessages, long sendQueueBytes, String io) {

        /** Whether any fault is injected. */
        public boolean faulty() {
            return faultLoss > 0 || faultDuplicate > 0 || faultReorder > 0 || faultCorrupt > 0 || delays();
        }

        /** Whether received datagrams go through the fault injector's delay line. */
        public boolean delays() {
            return faultDelayMicros > 0 || faultLate > 0;
        }
    }

    /**
     * Parses and checks the {@code udp.*} entries of {@code options}.
     *
     * @throws TransportException for an unknown {@code udp.*} key or a bad value, saying what is valid
     */
    public static Settings parse(Map<String, String> options) throws TransportException {
        for (String key : options.keySet()) {
            if (key.startsWith("udp.") && !KEYS.contains(key)) {
                throw new TransportException("unknown udp option '" + key + "'; valid keys: "
                        + String.join(", ", KEYS));
            }
        }
        String host = options.getOrDefault(HOST, "").trim(); // "": chosen at open, from the rendezvous
        if (options.containsKey(HOST) && host.isEmpty()) {
            throw bad(HOST, host, "a host name or IP address");
        }
        int port = (int) integer(options, PORT, 0, 0, 65535);
        int datagramSize = (int) integer(options, DATAGRAM_SIZE, DEFAULT_DATAGRAM_SIZE, 512, 65507);
        int window = (int) integer(options, WINDOW, DEFAULT_WINDOW, 8, 65536);
        long heartbeat = integer(options, HEARTBEAT_MILLIS, DEFAULT_HEARTBEAT_MILLIS, 1, 3_600_000);
        long timeout = integer(options, PEER_TIMEOUT_MILLIS, DEFAULT_PEER_TIMEOUT_MILLIS, 1, 86_400_000);
        if (timeout <= heartbeat) {
            throw new TransportException(PEER_TIMEOUT_MILLIS + "=" + timeout + " must be larger than "
                    + HEARTBEAT_MILLIS + "=" + heartbeat + " (several heartbeats per timeout); valid keys: "
                    + String.join(", ", KEYS));
        }
        long rtoMin = integer(options, RTO_MIN_MICROS, DEFAULT_RTO_MIN_MICROS, 1, 60_000_000);
        long rtoMax = integer(options, RTO_MAX_MILLIS, DEFAULT_RTO_MAX_MILLIS, 1, 600_000);
        if (rtoMax * 1000 < rtoMin) {
            throw new TransportException(RTO_MAX_MILLIS + " (ms) must not be below " + RTO_MIN_MICROS
                    + " (µs); valid keys: " + String.join(", ", KEYS));
        }
        long ackDelay = integer(options, ACK_DELAY_MICROS, DEFAULT_ACK_DELAY_MICROS, 0, 1_000_000);
        String mac = options.getOrDefault(MAC, AutoMac.NAME).trim().toLowerCase(Locale.ROOT);
        if (!List.of(AutoMac.NAME, AesPmacMac.NAME, AesCmacMac.NAME, HmacSha256Mac.NAME, AesGcmMac.NAME, GmacMac.NAME,
                Crc32cOnly.NAME).contains(mac)) {
            throw bad(MAC, mac, AutoMac.NAME + ", " + AesPmacMac.NAME + ", " + AesCmacMac.NAME + ", "
                    + HmacSha256Mac.NAME + ", " + AesGcmMac.NAME + ", " + GmacMac.NAME + " or " + Crc32cOnly.NAME
                    + " (with " + ALLOW_UNAUTHENTICATED + "=true)");
        }
        String allow = options.getOrDefault(ALLOW_UNAUTHENTICATED, "false").trim().toLowerCase(Locale.ROOT);
        if (!allow.equals("true") && !allow.equals("false")) {
            throw bad(ALLOW_UNAUTHENTICATED, allow, "true or false");
        }
        if (mac.equals(Crc32cOnly.NAME) && !allow.equals("true")) {
            throw new TransportException(MAC + "=" + Crc32cOnly.NAME + " turns datagram authentication off: anyone"
                    + " who can send to this job's ports could inject, alter or replay datagrams into the job. Use it"
                    + " only on a private, trusted network, and say so with " + ALLOW_UNAUTHENTICATED + "=true;"
                    + " otherwise leave " + MAC + " unset (" + AutoMac.NAME + ", authenticated)");
        }
        long rendezvous = integer(options, RENDEZVOUS_TIMEOUT_MILLIS, DEFAULT_RENDEZVOUS_TIMEOUT_MILLIS, 0, 86_400_000);
        long delay = integer(options, FAULT_DELAY_MICROS, 0, 0, 10_000_000);
        long jitter = integer(options, FAULT_JITTER_MICROS, 0, 0, 10_000_000);
        if (jitter > delay) {
            throw new TransportException(FAULT_JITTER_MICROS + "=" + jitter + " must not exceed " + FAULT_DELAY_MICROS
                    + "=" + delay + " (a delay cannot be negative); valid keys: " + String.join(", ", KEYS));
        }
        String io = options.getOrDefault(IO, IO_AUTO).trim().toLowerCase(Locale.ROOT);
        if (!List.of(IO_AUTO, IO_NATIVE, IO_CHANNEL).contains(io)) {
            throw bad(IO, io, IO_AUTO + " (native where it can be used), " + IO_NATIVE + " or " + IO_CHANNEL);
        }
        return new Settings(host, port, datagramSize, window, heartbeat, timeout, rtoMin, rtoMax, ackDelay, mac,
                rendezvous, probability(options, FAULT_LOSS), probability(options, FAULT_DUPLICATE),
                probability(options, FAULT_REORDER), probability(options, FAULT_CORRUPT),
                integer(options, FAULT_SEED, 1, Long.MIN_VALUE, Long.MAX_VALUE), delay, jitter,
                probability(options, FAULT_LATE),
                integer(options, FAULT_LATE_MICROS, DEFAULT_FAULT_LATE_MICROS, 0, 10_000_000),
                (int) integer(options, FAULT_DELAY_QUEUE, DEFAULT_FAULT_DELAY_QUEUE, 1, 65_536),
                integer(options, SEND_QUEUE_MESSAGES, DEFAULT_SEND_QUEUE_MESSAGES, 1, 1L << 30),
                integer(options, SEND_QUEUE_BYTES, DEFAULT_SEND_QUEUE_BYTES, 1, 1L << 50), io);
    }

    private static TransportException bad(String key, String value, String expected) {
        return new TransportException("bad value '" + value + "' for " + key + ": expected " + expected
                + "; valid keys: " + String.join(", ", KEYS));
    }

    private static long integer(Map<String, String> options, String key, long fallback, long min, long max)
            throws TransportException {
        String value = options.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            long v = Long.parseLong(value.trim());
            if (v < min || v > max) {
                throw bad(key, value, "an integer from " + min + " to " + max);
            }
            return v;
        } catch (NumberFormatException e) {
            throw bad(key, value, "an integer from " + min + " to " + max);
        }
    }

    private static double probability(Map<String, String> options, String key) throws TransportException {
        String value = options.get(key);
        if (value == null) {
            return 0;
        }
        try {
            double p = Double.parseDouble(value.trim());
            if (!(p >= 0 && p <= 1)) {
                throw bad(key, value, "a probability from 0 to 1");
            }
            return p;
        } catch (NumberFormatException e) {
            throw bad(key, value, "a probability from 0 to 1");
        }
    }
}
