package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The transport-to-host handoff queue (the report's niu_delivery_q, Isotach report §4.2.2, pp. 30-32). */
class HandoffQueueTest {

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertThat(new HandoffQueue(1).capacity()).isEqualTo(2);
        assertThat(new HandoffQueue(5).capacity()).isEqualTo(8);
        assertThat(new HandoffQueue(8).capacity()).isEqualTo(8);
        assertThat(new HandoffQueue(9).capacity()).isEqualTo(16);
    }

    @Test
    void fifoWithEveryFieldAndRefusalWhenFull() {
        HandoffQueue q = new HandoffQueue(4);
        assertThat(q.isEmpty()).isTrue();
        for (int round = 0; round < 3; round++) { // wraps around the cells
            for (int i = 0; i < 4; i++) {
                assertThat(q.offer(HandoffQueue.READ_RESPONSE, i, i + 1, i + 2, i + 3L, i + 4, i + 5L)).isTrue();
            }
            assertThat(q.offer(HandoffQueue.DATA, 9, 9, 9, 9, 9, 9)).as("full").isFalse();
            for (int i = 0; i < 4; i++) {
                int cell = q.peek();
                assertThat(cell).isNotNegative();
                assertThat(q.kind(cell)).isEqualTo(HandoffQueue.READ_RESPONSE);
                assertThat(q.source(cell)).isEqualTo(i);
                assertThat(q.slot(cell)).isEqualTo(i + 1);
                assertThat(q.length(cell)).isEqualTo(i + 2);
                assertThat(q.value(cell)).isEqualTo(i + 3L);
                assertThat(q.lvar(cell)).isEqualTo(i + 4);
                assertThat(q.pulse(cell)).isEqualTo(i + 5L);
                q.release(cell);
            }
            assertThat(q.peek()).isEqualTo(-1);
        }
    }

    /** Several producer threads, one consumer: every descriptor arrives once, each producer's in order. */
    @Test
    void concurrentProducersLoseAndDuplicateNothing() throws InterruptedException {
        int producers = 2;
        int each = 20_000;
        HandoffQueue q = new HandoffQueue(64);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            Thread t = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    while (!q.offer(HandoffQueue.DATA, id, i, i ^ 0x5A5A, (long) i << 20, id, -i)) {
                        Thread.yield(); // two shared cores: let the consumer run
                    }
                }
            });
            t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
            threads.add(t);
            t.start();
        }
        int[] next = new int[producers];
        long received = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (received < (long) producers * each) {
            assertThat(System.nanoTime()).as("consumer progress").isLessThan(deadline);
            int cell = q.peek();
            if (cell < 0) {
                Thread.yield();
                continue;
            }
            int src = q.source(cell);
            int i = q.slot(cell);
            if (i != next[src] || q.length(cell) != (i ^ 0x5A5A) || q.value(cell) != (long) i << 20
                    || q.lvar(cell) != src || q.pulse(cell) != -i) {
                throw new AssertionError("descriptor " + i + " of producer " + src + " (expected " + next[src]
                        + ") arrived torn or out of order");
            }
            q.release(cell);
            next[src]++;
            received++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failure.get()).isNull();
        assertThat(next).containsOnly(each);
        assertThat(q.isEmpty()).isTrue();
    }
}
