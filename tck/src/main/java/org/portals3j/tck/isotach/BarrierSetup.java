package org.portals3j.tck.isotach;

import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.TckTransport;

/**
 * Registers application barrier channel 1 on every host so that the hosts' first application barrier calls all
 * fall into one execution.
 *
 * <p>Why this takes care: an unclaimed channel is re-joined automatically on every completion (Isotach report §3.5.1,
 * pp. 18-20), so executions run back to back before anyone registers; a host that registers while its automatic
 * participation is out waits for that execution in TRANSITION (Isotach report §3.5.1, pp. 18-20), and one that
 * registers just before an execution completes holds the channel without having joined the next one. Registering
 * everywhere at once can therefore leave the hosts one execution apart, and then one host's application barrier
 * completes together with another's automatic participation. The report accepts this (known limitation
 * Isotach report §3.5.1, pp. 18-20); a test of the barrier's guarantee must avoid it:
 * <ol>
 * <li>host 0 registers; once the execution it waits for has completed it holds the channel, and no execution can
 *     complete without it - the automatic executions stop, every other host having joined the next one;</li>
 * <li>when every host's logical time is well past that completion, the others register: each waits in TRANSITION
 *     for that next execution;</li>
 * <li>host 0 calls iso_barrier and receives its notice: the execution completes, the others hold the channel
 *     (their completion is masked). From here on each execution is made of one application call per host.</li>
 * </ol>
 */
final class BarrierSetup {
    /** Pulses to wait after host 0 registered: far more than an execution takes to complete while unclaimed. */
    private static final int SETTLE_PULSES = 24;

    private BarrierSetup() {
    }

    /**
     * Stops the back-to-back executions of the unclaimed barrier channel 1: host 0 registers the channel and, once
     * its pending execution completed, holds it, so no execution completes without host 0's application. Afterwards
     * only traffic and the token manager's idle tick move logical time, whatever the engine does with automatic
     * executions.
     */
    static void quietClock(IsotachJob job, BarrierMode mode) {
        check(job.net(0).isoRegisterBarrier(1, mode), "host 0: iso_register_barrier(1, " + mode + ")");
        settle(job);
    }

    static void alignChannel1(IsotachJob job, BarrierMode mode) {
        int n = job.size();
        quietClock(job, mode);
        for (int h = 1; h < n; h++) {
            check(job.net(h).isoRegisterBarrier(1, mode), "host " + h + ": iso_register_barrier(1, " + mode + ")");
        }
        check(job.net(0).isoBarrier(1, mode), "host 0: iso_barrier(1, " + mode + ")");
        IsoMessage m = new IsoMessage();
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (true) {
            for (int h = 0; h < n; h++) {
                if (job.net(h).isoReceive(m) == IsotachNet.SUCCESS) {
                    if (h == 0 && m.isNotice() && m.barrierCompleted(1)) {
                        return;
                    }
                    throw new AssertionError("host " + h + " received " + IsoTraffic.copy(m)
                            + " while barrier channel 1 was being set up");
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("host 0's set-up barrier on channel 1 did not complete");
            }
        }
    }

    private static void settle(IsotachJob job) {
        int n = job.size();
        long start = 0;
        for (int h = 0; h < n; h++) {
            start = Math.max(start, job.net(h).logicalTime());
        }
        long target = start + SETTLE_PULSES;
        job.awaitCondition("every host past pulse " + target, () -> {
            for (int h = 0; h < n; h++) {
                if (job.net(h).logicalTime() < target) {
                    return false;
                }
            }
            return true;
        });
    }

    private static void check(int rc, String call) {
        if (rc != IsotachNet.SUCCESS) {
            throw new AssertionError(call + " returned " + rc);
        }
    }
}
