package org.portals3j.mpi.internal;

/**
 * The receiver's side of one sender's eager credit: the eager messages from it in arrival order (which is the
 * order the sender reserved their space in), each with the end of its space, and whether it has been consumed.
 * The space up to the end of the longest consumed prefix is free again; {@link #reportDue} says when to tell the
 * sender. At most one entry per slot of the region can be live, so the ledger never grows.
 */
final class CreditLedger {
    private final long[] ends;
    private final boolean[] consumed;
    private final int reportThreshold;
    private long first;
    private long next;
    private long freedTo;
    private long reported;

    CreditLedger(int regionBytes) {
        int entries = regionBytes / MpiConfig.SLOT + 1;
        ends = new long[entries];
        consumed = new boolean[entries];
        reportThreshold = regionBytes / 4;
    }

    /**
     * Records an eager message whose space ends at {@code end}; {@code done} if its space is already unused (it
     * went straight into a posted receive). Returns the entry, or -1 if the sender sent more than its credit
     * (a hostile or broken peer: its message is still delivered, but its space is not tracked).
     */
    long arrived(long end, boolean done) {
        if (next - first == ends.length) {
            return -1;
        }
        int i = (int) (next % ends.length);
        ends[i] = end;
        consumed[i] = done;
        long entry = next++;
        advance();
        return entry;
    }

    /** The message of {@code entry} has been copied out: its space can be reused. */
    void consumed(long entry) {
        if (entry < first || entry >= next) {
            return;
        }
        consumed[(int) (entry % ends.length)] = true;
        advance();
    }

    private void advance() {
        while (first < next && consumed[(int) (first % ends.length)]) {
            freedTo = Math.max(freedTo, ends[(int) (first % ends.length)]);
            first++;
        }
    }

    /** Whether enough has been freed since the last report to send one. */
    boolean reportDue() {
        return freedTo - reported >= reportThreshold;
    }

    /** The value to report, marking it reported. */
    long report() {
        reported = freedTo;
        return freedTo;
    }
}
