package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.lapi.ReturnInfo;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckSeed;

/**
 * Randomised traffic: 2 to 4 tasks, every task an origin on two threads at once, Amsends of random sizes on both
 * sides of the eager/rendezvous threshold (to every task, itself included), header handlers that put each message
 * at a random offset of its own slot. Every byte of every slot (the data where it belongs, the sentinel around it),
 * every handler run and every counter is checked. The seed replays the sizes, targets and offsets.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiRandomAmsendTest {
    private static final byte SENTINEL = (byte) 0xA5;
    private static final int MAX_OFFSET = 64;
    private static final int THREADS_PER_TASK = 2;

    /** One message: who sends it where, how long it is, and where its target puts it. */
    private record Message(int id, int origin, int target, int uhdrLen, long len, long offset) {
        byte dataAt(long k) {
            return (byte) (id * 31 + k * 7 + 1);
        }
    }

    @Test
    @SpecAssertion({"L-029", "L-030", "L-049", "L-076", "L-077", "L-078"})
    void randomSizesFromEveryTaskAtOnceAllArriveIntactAndCountedOnce() {
        long seed = TckSeed.of("LapiRandomAmsendTest");
        SplittableRandom random = new SplittableRandom(seed);
        int tasks = 2 + random.nextInt(3);
        int perThread = 40 + random.nextInt(40);
        try (LapiJob job = LapiJob.start(tasks)) {
            long packet = job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            List<Message> messages = new ArrayList<>();
            for (int o = 0; o < tasks; o++) {
                for (int i = 0; i < THREADS_PER_TASK * perThread; i++) {
                    int uhdrLen = 8 * (1 + random.nextInt(4));
                    long len = switch (random.nextInt(3)) {
                        case 0 -> random.nextLong(257);
                        case 1 -> packet - uhdrLen - 32 + random.nextLong(65);
                        default -> packet + random.nextLong(3 * packet);
                    };
                    messages.add(new Message(messages.size(), o, random.nextInt(tasks), uhdrLen, Math.max(0, len),
                            random.nextLong(MAX_OFFSET + 1)));
                }
            }
            long slotSize = 4 * packet + 2 * MAX_OFFSET;
            MemorySegment slots = job.allocate(slotSize * messages.size());
            slots.fill(SENTINEL);
            AtomicIntegerArray headerRuns = new AtomicIntegerArray(messages.size());
            AtomicIntegerArray completionRuns = new AtomicIntegerArray(messages.size());
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            long[] handlers = new long[tasks];
            LapiCounter[] tgt = new LapiCounter[tasks];
            for (int t = 0; t < tasks; t++) {
                int me = t;
                tgt[t] = job.task(t).newCounter();
                handlers[t] = job.task(t).address((LapiContext c, MemorySegment uhdr, ReturnInfo info) -> {
                    int id = (int) uhdr.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                    if (id < 0 || id >= messages.size()) {
                        wrong.add("a header names message " + id);
                        return null;
                    }
                    Message m = messages.get(id);
                    headerRuns.incrementAndGet(id);
                    if (m.target() != me || info.srcTask() != m.origin() || info.msgLen() != m.len()
                            || uhdr.byteSize() != m.uhdrLen()) {
                        wrong.add(m + " arrived at " + me + " from " + info.srcTask() + " with msgLen " + info.msgLen()
                                + " and uhdr_len " + uhdr.byteSize());
                    }
                    info.setCompletion((cc, userInfo) -> {
                        if (userInfo instanceof Integer k) {
                            completionRuns.incrementAndGet(k);
                        }
                    }, id);
                    return m.len() == 0 ? null : slots.asSlice(id * slotSize + m.offset(), m.len());
                });
            }
            LapiCounter[] org = new LapiCounter[tasks];
            LapiCounter[] cmpl = new LapiCounter[tasks];
            int[] sent = new int[tasks];
            for (int t = 0; t < tasks; t++) {
                org[t] = job.task(t).newCounter();
                cmpl[t] = job.task(t).newCounter();
            }
            for (Message m : messages) {
                sent[m.origin()]++;
            }
            List<MemorySegment> data = new ArrayList<>();
            List<MemorySegment> uhdrs = new ArrayList<>();
            for (Message m : messages) {
                MemorySegment d = job.allocate(m.len());
                for (long k = 0; k < m.len(); k++) {
                    d.set(ValueLayout.JAVA_BYTE, k, m.dataAt(k));
                }
                data.add(d);
                MemorySegment u = job.allocate(m.uhdrLen());
                u.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, m.id());
                uhdrs.add(u);
            }
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                for (int th = 0; th < THREADS_PER_TASK; th++) {
                    int origin = t;
                    int lane = th;
                    senders.add(Thread.ofPlatform().name("kit-sender-" + t + "-" + th).start(() -> {
                        LapiContext c = job.task(origin);
                        int k = 0;
                        for (Message m : messages) {
                            if (m.origin() == origin && k++ % THREADS_PER_TASK == lane) {
                                c.amsend(m.target(), handlers[m.target()], uhdrs.get(m.id()), m.uhdrLen(),
                                        data.get(m.id()), m.len(), tgt[m.target()].address(), org[origin],
                                        cmpl[origin]);
                            }
                        }
                    }));
                }
            }
            String replay = TckSeed.replay(seed);
            LapiJob.awaitCondition("every sender finished (" + replay + ")",
                    () -> senders.stream().noneMatch(Thread::isAlive));
            for (int t = 0; t < tasks; t++) {
                LapiJob.awaitCounter(job.task(t), cmpl[t], sent[t], "task " + t + "'s cmpl_cntr (" + replay + ")");
                LapiJob.awaitCounter(job.task(t), org[t], sent[t], "task " + t + "'s org_cntr (" + replay + ")");
            }
            job.gfenceAll();
            assertThat(wrong).as(replay).isEmpty();
            int[] received = new int[tasks];
            for (Message m : messages) {
                received[m.target()]++;
                assertThat(headerRuns.get(m.id())).as("header handler runs of %s, %s", m, replay).isEqualTo(1);
                assertThat(completionRuns.get(m.id())).as("completion runs of %s, %s", m, replay).isEqualTo(1);
                checkSlot(slots.asSlice(m.id() * slotSize, slotSize), m, replay);
            }
            for (int t = 0; t < tasks; t++) {
                assertThat(job.task(t).getcntr(cmpl[t])).as("task %d's cmpl_cntr, %s", t, replay).isEqualTo(sent[t]);
                assertThat(job.task(t).getcntr(org[t])).as("task %d's org_cntr, %s", t, replay).isEqualTo(sent[t]);
                assertThat(job.task(t).getcntr(tgt[t])).as("task %d's tgt_cntr, %s", t, replay)
                        .isEqualTo(received[t]);
            }
            assertThat(job.asyncErrors()).as(replay).isEmpty();
        }
    }

    /** The message's bytes at its offset, the sentinel everywhere else in its slot. */
    private static void checkSlot(MemorySegment slot, Message m, String replay) {
        for (long k = 0; k < slot.byteSize(); k++) {
            byte expected = k >= m.offset() && k < m.offset() + m.len() ? m.dataAt(k - m.offset()) : SENTINEL;
            byte actual = slot.get(ValueLayout.JAVA_BYTE, k);
            if (actual != expected) {
                throw new AssertionError(m + ": byte " + k + " of its slot is " + actual + ", not " + expected + " ("
                        + replay + ")");
            }
        }
    }
}
