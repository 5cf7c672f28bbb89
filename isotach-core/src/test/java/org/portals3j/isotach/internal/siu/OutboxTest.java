package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;
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
        assertThat(numbers(t)).containsExactlyElementsOf(LongStream.range(0, 40).boxed().toList());
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
        outbox.flushLeftover(System.nanoTime());
        assertThat(t.sent()).as("the frame left queued, sent on the next poll").hasSize(first + 1);
        assertThat(numbers(t)).isSorted().doesNotHaveDuplicates();
        outbox.flushLeftover(System.nanoTime());
        assertThat(t.sent()).as("a poll with nothing left sends nothing").hasSize(first + 1);
    }

    /** An outbox whose host's thread (this one) is in a poll loop: it has polled twice within the linger time. */
    private Outbox pollingHost(OrderRecordingTransport t, LongSupplier clock) {
        return pollingHost(t, clock, true);
    }

    /** The same on a transport with ({@code holdsBack}) or without a thread of its own. */
    private Outbox pollingHost(OrderRecordingTransport t, LongSupplier clock, boolean holdsBack) {
        Outbox outbox = new Outbox(t, lock, 16, clock, holdsBack);
        outbox.hostPolls();
        outbox.hostPolls();
        return outbox;
    }

    /** An ISO frame for {@code to} (a ping or a reply), its clock section empty. */
    private static MemorySegment iso() {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.ISO);
        ClockSection.clear(f, Frame.O_ISO_CLOCK);
        return f;
    }

    private static MemorySegment markAndNeed(long mark, long need) {
        MemorySegment f = numbered(mark);
        ClockSection.addNeed(f, Frame.O_CLOCK, need);
        return f;
    }

    private void add(Outbox outbox, int to, MemorySegment frame, int length) {
        synchronized (lock) {
            outbox.add(to, frame, length, MemorySegment.NULL, 0, 0, -1);
        }
    }

    @Test
    void theHostsMarkLingersAndTheReplysFrameCarriesIt() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        long[] now = {1_000_000};
        Outbox outbox = pollingHost(t, () -> now[0]);
        add(outbox, 0, markAndNeed(7, 9), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(t.sent()).as("the acknowledgement waits for a frame to ride on").isEmpty();
        now[0] += Outbox.LINGER_NANOS / 2;
        add(outbox, 0, iso(), Frame.ISO_LENGTH);
        outbox.flush();
        assertThat(t.sent()).as("one frame: the reply, carrying the mark and the wake-up").hasSize(1);
        MemorySegment sent = t.sent().get(0).segment();
        assertThat(Frame.kind(sent)).isEqualTo(Frame.ISO);
        assertThat(ClockSection.flags(sent, Frame.O_ISO_CLOCK))
                .isEqualTo(ClockSection.HAS_MARK | ClockSection.HAS_NEED);
        assertThat(ClockSection.markOf(sent, Frame.O_ISO_CLOCK)).isEqualTo(7);
        assertThat(ClockSection.needOf(sent, Frame.O_ISO_CLOCK)).isEqualTo(9);
        outbox.flushLeftover(now[0] + Outbox.LINGER_NANOS);
        outbox.flush();
        assertThat(t.sent()).as("the absorbed frame is never sent").hasSize(1);
    }

    @Test
    void aLingeringMarkGoesAtTheHostsFirstPollAfterTheLingerTime() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        long[] now = {0};
        Outbox outbox = pollingHost(t, () -> now[0]);
        add(outbox, 0, numbered(3), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        now[0] += Outbox.LINGER_NANOS - 1;
        outbox.flushLeftover(now[0]);
        assertThat(t.sent()).isEmpty();
        now[0] += 1;
        outbox.flushLeftover(now[0]);
        assertThat(numbers(t)).containsExactly(3L);
    }

    @Test
    void noOtherThreadLetsAFrameLinger() throws Exception {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        Outbox outbox = new Outbox(t, lock, 16, () -> 0L);
        Thread host = new Thread(() -> { // a host thread in a poll loop, but not the one that flushes
            outbox.hostPolls();
            outbox.hostPolls();
        });
        host.start();
        host.join();
        add(outbox, 0, numbered(3), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger(); // on a transport thread, or in another rank's inline delivery
        assertThat(numbers(t)).containsExactly(3L);
    }

    /** A CLOCK frame carrying the token run {@code first..last} (effect bits on the last), numbered {@code n}. */
    private static MemorySegment tokens(long n, long first, long last, int bits) {
        MemorySegment f = numbered(n);
        for (long p = first; p <= last; p++) {
            assertThat(ClockSection.addToken(f, Frame.O_CLOCK, p, p == last ? bits : 0, p == last ? 40 : 0)).isTrue();
        }
        return f;
    }

    @Test
    void theTokenManagersTokenLingersAndItsNextPingCarriesItAheadOfTheNextToken() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2);
        long[] now = {1_000_000};
        Outbox outbox = pollingHost(t, () -> now[0]);
        add(outbox, 1, tokens(1, 5, 5, 0), Frame.CLOCK_LENGTH); // TOKEN(5), issued when the reply came
        outbox.flushMayLinger();
        assertThat(t.sent()).as("the token waits for the next ping").isEmpty();
        MemorySegment ping;
        synchronized (lock) {
            ping = outbox.add(1, iso(), Frame.ISO_LENGTH, MemorySegment.NULL, 0, 0, -1);
            // the ping's own token, as SwitchNode.sendTokenLocked adds it to the section still queued for the link
            assertThat(ClockSection.addToken(ping, Frame.O_ISO_CLOCK, 6, 3, 9)).isTrue();
        }
        outbox.flush();
        assertThat(t.sent()).as("one frame: the ping, with both tokens").hasSize(1);
        MemorySegment sent = t.sent().get(0).segment();
        assertThat(Frame.kind(sent)).isEqualTo(Frame.ISO);
        assertThat(ClockSection.tokenPulse(sent, Frame.O_ISO_CLOCK) - ClockSection.tokenRun(sent, Frame.O_ISO_CLOCK))
                .as("the run starts at the lingering token").isEqualTo(5);
        assertThat(ClockSection.tokenPulse(sent, Frame.O_ISO_CLOCK)).isEqualTo(6);
        assertThat(ClockSection.tokenBits(sent, Frame.O_ISO_CLOCK)).isEqualTo(3);
        assertThat(ClockSection.effectPulse(sent, Frame.O_ISO_CLOCK)).isEqualTo(9);
        assertThat(ClockSection.markOf(sent, Frame.O_ISO_CLOCK)).as("the lingering frame's mark came along")
                .isEqualTo(1);
    }

    @Test
    void aLingeringTokenWithEffectsIsCarriedButNoLaterTokenJoinsIt() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2);
        Outbox outbox = pollingHost(t, () -> 0L);
        add(outbox, 1, tokens(1, 4, 5, 2), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        MemorySegment ping;
        synchronized (lock) {
            ping = outbox.add(1, iso(), Frame.ISO_LENGTH, MemorySegment.NULL, 0, 0, -1);
            assertThat(ClockSection.tokenRun(ping, Frame.O_ISO_CLOCK)).isEqualTo(1);
            assertThat(ClockSection.addToken(ping, Frame.O_ISO_CLOCK, 6, 0, 0))
                    .as("TOKEN(5) carries effects: TOKEN(6) needs a frame of its own").isFalse();
        }
        outbox.flush();
        assertThat(t.sent()).hasSize(1);
        assertThat(ClockSection.tokenPulse(t.sent().get(0).segment(), Frame.O_ISO_CLOCK)).isEqualTo(5);
    }

    @Test
    void aTokenThatFillsTheWindowAndItsAcknowledgementNeverLinger() {
        OrderRecordingTransport t = new OrderRecordingTransport(0, 2);
        Outbox outbox = pollingHost(t, () -> 0L);
        MemorySegment token = tokens(1, 5, 5, 0);
        ClockSection.requestAck(token, Frame.O_CLOCK);
        add(outbox, 1, token, Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("the token manager waits for its acknowledgement").containsExactly(1L);
    }

    @Test
    void aFrameWithOthersBehindItDoesNotLinger() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        Outbox outbox = pollingHost(t, () -> 0L);
        add(outbox, 0, tokens(1, 5, 5, 0), Frame.CLOCK_LENGTH);
        add(outbox, 2, tokens(2, 5, 5, 0), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("a round of tokens to several hosts goes at once").containsExactly(1L, 2L);
        add(outbox, 0, numbered(3), Frame.CLOCK_LENGTH);
        add(outbox, 2, numbered(4), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("not the last frame queued: nothing waits behind a lingering one")
                .containsExactly(1L, 2L, 3L, 4L);
        add(outbox, 0, numbered(5), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger(); // alone: lingers
        assertThat(t.sent()).hasSize(4);
        add(outbox, 2, iso(), Frame.ISO_LENGTH);
        outbox.flushMayLinger();
        assertThat(t.sent()).as("an ISO frame for another link absorbs nothing; both go, in order").hasSize(6);
        assertThat(t.sent().get(4).peer()).isEqualTo(0);
        assertThat(Frame.kind(t.sent().get(4).segment())).isEqualTo(Frame.CLOCK);
    }

    @Test
    void anAskForTimeNeverLingers() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        Outbox outbox = pollingHost(t, () -> 0L);
        add(outbox, 0, markAndNeed(1, 4), Frame.CLOCK_LENGTH);
        outbox.flush(); // a stamp's ask, or the one owed at the end of a batching period
        assertThat(t.sent()).hasSize(1);
    }

    @Test
    void aHostThatPollsLessOftenThanTheLingerTimeNeverLingers() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        long[] now = {0};
        Outbox outbox = new Outbox(t, lock, 16, () -> now[0]);
        outbox.hostPolls();
        now[0] += Outbox.LINGER_NANOS;
        outbox.hostPolls();
        add(outbox, 0, numbered(3), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("its next poll may be far off").containsExactly(3L);
    }

    @Test
    void whenTheHostsPollersAreGoneWhatLingersGoesAndNothingLingersUntilItPollsAgain() throws Exception {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        Outbox outbox = pollingHost(t, () -> 0L);
        add(outbox, 0, numbered(3), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(t.sent()).as("lingering: the host polls often").isEmpty();
        // The host stops polling (its application got what it waited for); the transport's thread says so.
        Thread transportThread = new Thread(outbox::pollersGone);
        transportThread.start();
        transportThread.join();
        assertThat(numbers(t)).as("sent by the transport's thread, long before the host would poll again")
                .containsExactly(3L);
        add(outbox, 0, numbered(4), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("until the host polls again nothing lingers").containsExactly(3L, 4L);
        outbox.hostPolls();
        outbox.hostPolls();
        add(outbox, 0, numbered(5), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("back in its poll loop, it lingers again").containsExactly(3L, 4L);
    }

    @Test
    void onATransportWithoutAThreadOfItsOwnNothingLingers() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        Outbox outbox = pollingHost(t, () -> 0L, false);
        add(outbox, 0, numbered(3), Frame.CLOCK_LENGTH);
        outbox.flushMayLinger();
        assertThat(numbers(t)).as("nobody would send it if the host stopped polling").containsExactly(3L);
    }

    @Test
    void pollersGoneWaitsForAFlushInProgressAndSendsWhatItHeldBack() throws Exception {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        Outbox outbox = pollingHost(t, () -> 0L);
        CountDownLatch inSend = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        // The host's flush is in the middle of sending (frame 1 to host 2) when the transport's thread reports the
        // host gone; the flush then holds back frame 2, its last, unless it sees the report in time.
        t.afterSend(peer -> {
            if (peer == 2) {
                inSend.countDown();
                try {
                    goOn.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        add(outbox, 0, numbered(0), Frame.CLOCK_LENGTH); // two frames queued: neither is alone, both go at once
        add(outbox, 2, numbered(1), Frame.CLOCK_LENGTH);
        Thread gone = new Thread(outbox::pollersGone);
        // Lingering is for the host's own thread: this one polls, then flushes.
        Thread host = new Thread(() -> {
            outbox.hostPolls();
            outbox.hostPolls();
            outbox.flushMayLinger();
        });
        host.start();
        inSend.await();
        add(outbox, 0, numbered(2), Frame.CLOCK_LENGTH);
        gone.start();
        Thread.sleep(20); // pollersGone spins on the flag the host's flush holds
        assertThat(numbers(t)).as("nothing more while the host's flush holds the flag").containsExactly(0L, 1L);
        goOn.countDown();
        host.join();
        gone.join();
        assertThat(numbers(t)).as("the frame the host's flush left is sent").containsExactly(0L, 1L, 2L);
    }
}
