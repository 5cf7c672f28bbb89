package org.portals3j.transport.udp.internal.reliability;

/**
 * The retransmission timeout of RFC 6298: SRTT and RTTVAR with alpha = 1/8 and beta = 1/4, RTO =
 * SRTT + max(G, K * RTTVAR) with K = 4 and G the minimum RTO, clamped to [min, max], doubled on every
 * timeout until the next valid sample. A sample per acknowledged datagram, with the gains divided by the
 * samples expected per round trip (RFC 7323, appendix G). Karn's rule is the caller's. Times in nanoseconds.
 */
public final class RttEstimator {
    static final int K = 4;

    private final long minRto;
    private final long maxRto;
    private long srtt;
    private long rttvar;
    private long minRtt = Long.MAX_VALUE;
    private long rto;
    private boolean sampled;

    /**
     * @param minRto     the smallest RTO, and the least the variance term adds to SRTT: as Linux floors its
     *                   mdev at rto_min, so that a steady round trip (RTTVAR near 0) cannot bring the timer
     *                   down to SRTT itself, where any scheduling hiccup fires it
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

    /**
     * Takes one round-trip measurement, the only one of its round trip (RFC 6298 section 2.2 for the first, 2.3 after).
     */
    public void sample(long rtt) {
        sample(rtt, 1);
    }

    /**
     * Takes one of {@code perRoundTrip} measurements expected in this round trip (one per datagram in flight):
     * alpha and beta are divided by it (RFC 7323, appendix G), so that RTTVAR keeps the spread of a whole
     * round trip's samples instead of following the last few.
     */
    public void sample(long rtt, long perRoundTrip) {
        if (rtt < 0) {
            return;
        }
        minRtt = Math.min(minRtt, rtt);
        if (!sampled) {
            srtt = rtt;
            rttvar = rtt / 2;
            sampled = true;
        } else {
            long n = Math.max(1, perRoundTrip);
            rttvar += (Math.abs(srtt - rtt) - rttvar) / (4 * n);
            srtt += (rtt - srtt) / (8 * n);
        }
        rto = current();
    }

    private long current() {
        return clamp(srtt + Math.max(minRto, K * rttvar));
    }

    /** The timer expired: double the RTO (RFC 6298 5.5), up to the maximum. */
    public void backoff() {
        rto = Math.min(maxRto, rto * 2);
    }

    /** The timeout turned out spurious: drop the back-off (RFC 4015's response keeps the estimate it had). */
    public void undoBackoff() {
        if (sampled) {
            rto = current();
        }
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

    /** The smallest round trip sampled (Long.MAX_VALUE before the first sample). */
    public long minRtt() {
        return minRtt;
    }

    public boolean hasSample() {
        return sampled;
    }
}
