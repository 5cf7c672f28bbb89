package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.internal.siu.OrderRecordingTransport.Sent;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;

/** The switch node's outbox: queue order, batches taken under the lock, and what an inline exchange leaves behind. */
class OutboxTest {
    private final Object lock = new Object();

    /** A CLOCK frame whose mark is {@code n}: a frame that says which one it is. */
    private static MemorySegment numbered(long n) {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.CLOCK);
        ClockSection.clear(f, Frame.O_CLOCK);
        ClockSection.addMark(f, Frame.O_CLOCK, n, n);
        return f;
    }

    private void add(Outbox outbox, int to, long n) {
        synchronized (lock) {
            outbox.add(to, numbered(n), Frame.CLOCK_LENGTH, MemorySegment.NULL, 0, 0, -1);
        }
    }

    private static List<Long> numbers(OrderRecordingTransport t) {
        return t.sent().stream().map(s -> ClockSection.markOf(s.segment(), Frame.O_CLOCK)).toList();
    }

    @Test
    void framesLeaveInQueueOrderEachOnceAcrossSeveralBatches() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 3);
        Outbox outbox = new Outbox(t, lock, 4); // grows, and more frames than one batch
        for (long n = 0; n < 40; n++) {
            add(outbox, 1 + (int) (n % 2), n);
        }
        outbox.flush();
        assertThat(numbers(t)).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 40).boxed().toList());
        assertThat(t.sent()).extracting(Sent::peer).startsWith(1, 2, 1, 2);
        outbox.flush();
        assertThat(t.sent()).as("nothing twice").hasSize(40);
    }

    @Test
    void anEndlessInlineExchangeIsCutAtTheBudgetAndTheHostsNextPollSendsTheRest() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2);
        Outbox outbox = new Outbox(t, lock, 16);
        long[] next = {1};
        t.afterSend(peer -> {
            add(outbox, 1, next[0]++); // every frame delivered inline makes the receiver answer with another
            outbox.flush(); // as the receiving side does: the flag is taken, the running flush must send it
        });
        add(outbox, 1, 0);
        outbox.flush();
        int first = t.sent().size();
        assertThat(first).as("the frame queued, then the budget of frames its own sends produced")
                .isEqualTo(1 + Outbox.OWN_FRAMES_PER_FLUSH);
        t.afterSend(peer -> { });
        outbox.flushLeftover();
        assertThat(t.sent()).as("the frame left queued, sent on the next poll").hasSize(first + 1);
        assertThat(numbers(t)).isSorted().doesNotHaveDuplicates();
        outbox.flushLeftover();
        assertThat(t.sent()).as("a poll with nothing left sends nothing").hasSize(first + 1);
    }
}
