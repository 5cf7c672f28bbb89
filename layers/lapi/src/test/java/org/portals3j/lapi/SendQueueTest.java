package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The staging buffers' send queue: a send takes back the buffers whose sends ended, reading only logged events. */
class SendQueueTest {

    /**
     * A reap takes the events the queue's handler counted and stops there: its last PtlEQGet never finds the queue
     * empty (which would poll the network on the sending thread), and the buffers still come back for reuse.
     */
    @Test
    void sequentialAmsendsReuseTheirStagingBuffersWithoutFindingTheSendQueueEmpty() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            job.task(1).addrSet((ctx, uhdr, info) -> null, 1);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            Endpoint origin = job.task(0).engine().endpoint;
            int sends = 200;
            for (int i = 0; i < sends; i++) {
                job.task(0).amsend(1, 1, null, 0, null, 0, tgt.address(), null, cmpl);
                job.task(0).waitcntr(cmpl, 1);
            }
            job.task(1).waitcntr(tgt, sends);
            assertThat(origin.emptyReaps()).isZero();
            assertThat(origin.stagingBound()).isLessThan(sends / 10);
        }
    }
}
