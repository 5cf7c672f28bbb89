package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.internal.wire.Frame;

class ArrivalQueueTest {
    /** Records "source:type:seq" for each frame (seq is the frame's first int) and "down:peer" for each failure. */
    private static final class Log implements ArrivalQueue.Sink {
        final List<String> events = new ArrayList<>();
        /** Runs with each frame's seq, after it is recorded. */
        IntConsumer onFrame = seq -> { };

        @Override
        public void arrived(int source, int type, MemorySegment header) {
            int seq = header.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
            events.add(source + ":" + type + ":" + seq);
            onFrame.accept(seq);
        }

        @Override
        public void peerDown(int peer) {
            events.add("down:" + peer);
        }
    }

    private static final MemorySegment FRAME = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);

    private static void add(ArrivalQueue q, int source, int type, int seq) {
        FRAME.set(ValueLayout.JAVA_INT_UNALIGNED, 0, seq);
        FRAME.set(ValueLayout.JAVA_INT_UNALIGNED, Frame.MAX_LENGTH - 4, ~seq);
        q.add(source, type, FRAME, Frame.MAX_LENGTH);
    }

    @Test
    void framesComeOutOnceInArrivalOrderWithTheirSourceTypeAndBytesAcrossGrowth() {
        Log log = new Log();
        List<Integer> tails = new ArrayList<>();
        ArrivalQueue q = new ArrivalQueue(2, 4, new ArrivalQueue.Sink() {
            @Override
            public void arrived(int source, int type, MemorySegment header) {
                log.arrived(source, type, header);
                tails.add(~header.get(ValueLayout.JAVA_INT_UNALIGNED, Frame.MAX_LENGTH - 4));
            }

            @Override
            public void peerDown(int peer) {
                log.peerDown(peer);
            }
        });
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            add(q, i % 4, i % 3, i);
            expected.add(i % 4 + ":" + i % 3 + ":" + i);
        }
        q.drainForHost();
        assertThat(log.events).containsExactlyElementsOf(expected);
        assertThat(tails).as("every byte of each frame, not a later frame's").containsExactlyElementsOf(
                expected.stream().map(e -> Integer.parseInt(e.substring(e.lastIndexOf(':') + 1))).toList());
        assertThat(q.isEmpty()).isTrue();
        q.drainForHost();
        assertThat(log.events).hasSize(100);
    }

    @Test
    void aHostDrainTakesOnlyWhatWasQueuedWhenItStarted() {
        Log log = new Log();
        ArrivalQueue q = new ArrivalQueue(8, 2, log);
        log.onFrame = seq -> {
            if (seq == 1) {
                add(q, 1, ArrivalQueue.FRAME, 2); // a peer answered inline while the host processed frame 1
            }
        };
        add(q, 0, ArrivalQueue.ISO, 1);
        q.drainForHost();
        assertThat(log.events).containsExactly("0:1:1");
        assertThat(q.isEmpty()).isFalse();
        q.drainForHost();
        assertThat(log.events).containsExactly("0:1:1", "1:0:2");
    }

    @Test
    void aForeignDrainTakesWhatArrivesMeanwhileButStopsAfterItsBudget() {
        Log log = new Log();
        ArrivalQueue q = new ArrivalQueue(8, 2, log);
        log.onFrame = seq -> add(q, 1, ArrivalQueue.FRAME, seq + 1); // an exchange that never ends (idle tick 0)
        add(q, 0, ArrivalQueue.FRAME, 0);
        q.drainForeign();
        assertThat(log.events).hasSize(ArrivalQueue.FOREIGN_DRAIN_BUDGET);
        assertThat(q.isEmpty()).as("the rest waits for the next drain").isFalse();
        log.onFrame = seq -> { };
        q.drainForeign();
        assertThat(log.events).hasSize(ArrivalQueue.FOREIGN_DRAIN_BUDGET + 1);
        assertThat(log.events.get(ArrivalQueue.FOREIGN_DRAIN_BUDGET))
                .isEqualTo("1:0:" + ArrivalQueue.FOREIGN_DRAIN_BUDGET);
    }

    @Test
    void aPeerFailureIsAppliedOnceAfterEveryFrameQueuedBeforeIt() {
        Log log = new Log();
        ArrivalQueue q = new ArrivalQueue(8, 3, log);
        int n = ArrivalQueue.FOREIGN_DRAIN_BUDGET + 5;
        for (int i = 0; i < n; i++) {
            add(q, 2, ArrivalQueue.FRAME, i);
        }
        q.peerDown(2);
        q.peerDown(2);
        q.drainForeign();
        assertThat(log.events).as("the budget ran out before the dead peer's last frames").hasSize(n - 5)
                .doesNotContain("down:2");
        q.drainForHost();
        assertThat(log.events).hasSize(n + 1);
        assertThat(log.events.get(n - 1)).isEqualTo("2:0:" + (n - 1));
        assertThat(log.events.get(n)).isEqualTo("down:2");
        q.peerDown(2);
        q.drainForHost();
        assertThat(log.events).as("reported once").hasSize(n + 1);
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void theDrainerMayGrowTheQueueWhileItProcessesAFrame() {
        Log log = new Log();
        ArrivalQueue q = new ArrivalQueue(2, 2, log);
        log.onFrame = seq -> {
            if (seq == 0) {
                for (int i = 1; i <= 20; i++) {
                    add(q, 1, ArrivalQueue.FRAME, i); // on the draining thread: the queue doubles under its feet
                }
            }
        };
        add(q, 0, ArrivalQueue.FRAME, 0);
        add(q, 0, ArrivalQueue.FRAME, 100);
        q.drainForHost();
        assertThat(log.events).containsExactly("0:0:0", "0:0:100");
        q.drainForHost();
        assertThat(log.events).hasSize(22);
        for (int i = 1; i <= 20; i++) {
            assertThat(log.events.get(i + 1)).isEqualTo("1:0:" + i);
        }
    }

    @Test
    void aProducerThreadAndAPollingHostHandEveryFrameOverOnceAndInOrder() throws Exception {
        Log log = new Log();
        ArrivalQueue q = new ArrivalQueue(64, 2, log);
        int n = 200_000;
        Thread producer = new Thread(() -> {
            MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
            for (int i = 0; i < n; i++) {
                f.set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
                q.add(1, ArrivalQueue.FRAME, f, Frame.MAX_LENGTH);
            }
        });
        producer.start();
        while (producer.isAlive() || !q.isEmpty()) {
            q.drainForHost();
        }
        producer.join();
        assertThat(log.events).hasSize(n);
        for (int i = 0; i < n; i++) {
            if (!log.events.get(i).equals("1:0:" + i)) {
                assertThat(log.events.get(i)).as("frame %d", i).isEqualTo("1:0:" + i);
            }
        }
    }
}
