package org.portals3j.transport.udp.internal.reliability;

/**
 * The retransmission timeout of RFC 6298: SRTT and RTTVAR with alpha = 1/8 and beta = 1/4, RTO =
 * SRTT + max(G, K * RTTVAR) with K = 4, clamped to [min, max], doubled on every timeout (exponential
 * back-off) until the next valid sample. Karn's rule (no sample from a retransmitted datagram) is the
 * caller's: it only samples datagrams sent once. Times in nanoseconds.
 */
public final class RttEstimator {
    /** Clock granularity G: System.nanoTime is finer than this on every platform we run on. */
    static final long GRANULARITY_NANOS = 1_000L;
    static final int K = 4;

    private final long minRto;
    private final long maxRto;
    private long srtt;
    private long rttvar;
    private long rto;
    private boolean sampled;

    /**
     * @param initialRto the RTO before the first sample (RFC 6298 says 1 s for the Internet; a job's
     *                   network is local, so the endpoint passes something much shorter)
     */
    public RttEstimator(long minRto, long maxRto, long initialRto) {
        if (minRto <= 0 || maxRto < minRto) {
            throw new IllegalArgumentException("need 0 < minRto <= maxRto, got " + minRto + ", " + maxRto);
        }
        this.minRto = minRto;
        this.maxRto = maxRto;
        this.rto = clamp(initialRto);
    }

    private long clamp(long value) {
        return Math.max(minRto, Math.min(maxRto, value));
    }

    /** Takes one round-trip measurement (RFC 6298 section 2.2 for the first, 2.3 after). */
    public void sample(long rtt) {
        if (rtt < 0) {
            return;
        }
        if (!sampled) {
            srtt = rtt;
            rttvar = rtt / 2;
            sampled = true;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - rtt)) / 4;
            srtt = (7 * srtt + rtt) / 8;
        }
        rto = clamp(srtt + Math.max(GRANULARITY_NANOS, K * rttvar));
    }

    /** The timer expired: double the RTO (RFC 6298 5.5), up to the maximum. */
    public void backoff() {
        rto = Math.min(maxRto, rto * 2);
    }

    public long rto() {
        return rto;
    }

    public long srtt() {
        return srtt;
    }

    public long rttvar() {
        return rttvar;
    }

    public boolean hasSample() {
        return sampled;
    }
}
