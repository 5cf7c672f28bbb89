package org.portals3j.mpi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The work of an 8-byte message, counted: the Portals calls (JFR method timing: exact invocation counts, not times)
 * and the rank-lock acquisitions (the two ranks' own counts, so no other thread of the JVM adds to them) of a
 * blocking eager send and of a blocking receive posted before its message. Each
 * scenario orders its two ranks so that the count does not depend on scheduling.
 */
class CallCountTest {
    private static final int CONTEXT = 0;
    private static final int TAG = 7;
    private static final int MESSAGES = 200;
    /**
     * Calls the count may hold beyond the scenario's own: threads of earlier tests in the JVM still ending, a wait
     * woken once without its event. A call more or less per message moves a count by {@link #MESSAGES}.
     */
    private static final int STRAY = 16;
    private static final String PORTALS = "org.portals3j.portals.Portals";
    private static final String LIBRARY = "org.portals3j.portals.PortalsLibrary";

    @Test
    void aBlockingEagerSendMakesFivePortalsCallsAndTakesTheRankLockOnce() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            SendOperation[] sends = new SendOperation[MESSAGES];
            for (int i = 0; i < MESSAGES; i++) {
                sends[i] = new SendOperation(arena.allocate(8));
            }
            long holdsBefore = rank0.lockHolds() + rank1.lockHolds();
            Map<String, Long> counts = count(() -> {
                for (SendOperation op : sends) { // to rank 1, which receives nothing meanwhile: eager, unexpected
                    rank0.startSend(op, 1, MatchBits.of(CONTEXT, 0, TAG), false);
                    rank0.await(op);
                }
            });
            // PtlMDBind, PtlPut, PtlEQGet of SEND_START and of SEND_END, PtlMDUnlink
            assertThat(calls(counts, LIBRARY + ".put")).isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
            assertThat(calls(counts, PORTALS + ".mdBind")).isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
            assertThat(calls(counts, LIBRARY + ".mdUnlink")).isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
            assertThat(calls(counts, LIBRARY + ".eqGet")).isLessThanOrEqualTo(2L * MESSAGES + STRAY);
            assertThat(portalsCalls(counts)).isLessThanOrEqualTo(5L * MESSAGES + STRAY);
            assertThat(rank0.lockHolds() + rank1.lockHolds() - holdsBefore).isLessThanOrEqualTo(MESSAGES);
            for (SendOperation op : sends) {
                assertThat(op.isDone()).isTrue();
                assertThat(op.errorClass()).isEqualTo(ErrorClass.SUCCESS);
            }
        });
    }

    @Test
    void aBlockingReceivePostedBeforeItsMessageMakesFourPortalsCallsAndTakesTheRankLockTwice() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            SendOperation[] sends = new SendOperation[MESSAGES];
            ReceiveOperation[] receives = new ReceiveOperation[MESSAGES];
            for (int i = 0; i < MESSAGES; i++) {
                sends[i] = new SendOperation(arena.allocate(8));
                sends[i].buffer.set(ValueLayout.JAVA_INT, 0, i);
                receives[i] = new ReceiveOperation(arena.allocate(8), MatchBits.of(CONTEXT, 0, TAG),
                        MatchBits.ignore(false, false), null);
            }
            AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
            long holdsBefore = rank0.lockHolds() + rank1.lockHolds();
            Map<String, Long> counts = count(() -> {
                Thread receiver = Thread.ofPlatform().name("receiver").start(() -> {
                    try {
                        for (ReceiveOperation op : receives) {
                            rank1.receive(op);
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
                for (int i = 0; i < MESSAGES; i++) {
                    ReceiveOperation previous = i == 0 ? null : receives[i - 1];
                    // the receiver has posted this receive and blocks for its event before the message leaves
                    awaitCondition(() -> (previous == null || previous.isDone()) && rank1.blocker() == receiver
                            || !receiver.isAlive());
                    rank0.startSend(sends[i], 1, MatchBits.of(CONTEXT, 0, TAG), false);
                    rank0.await(sends[i]);
                }
                receiver.join();
            });
            Throwable f = failure.get();
            if (f != null) {
                throw new AssertionError("the receiver failed", f);
            }
            for (int i = 0; i < MESSAGES; i++) {
                assertThat(receives[i].bytes()).isEqualTo(8);
                assertThat(receives[i].buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(i);
            }
            // the receive: PtlEQGet finding the queue empty, PtlMDUpdate switching the entry kept from the previous
            // receive on (the first inserts and attaches it), PtlEQWait (PUT_START), PtlEQGet (PUT_END); the send: 5
            assertThat(calls(counts, LIBRARY + ".meInsert")).isBetween(1L, 1L + STRAY);
            assertThat(calls(counts, PORTALS + ".mdAttach")).isBetween(1L, 1L + STRAY);
            assertThat(calls(counts, LIBRARY + ".meUnlink")).isLessThanOrEqualTo(STRAY);
            assertThat(calls(counts, LIBRARY + ".mdUpdate")).isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
            assertThat(calls(counts, LIBRARY + ".eqWaitInterruptibly"))
                    .isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
            assertThat(calls(counts, LIBRARY + ".eqGet")).isLessThanOrEqualTo((2 + 2L) * MESSAGES + STRAY);
            assertThat(portalsCalls(counts)).isLessThanOrEqualTo((5 + 4L) * MESSAGES + STRAY);
            // the receive: one hold to post and become the blocker, one to handle what PtlEQWait returned
            assertThat(rank0.lockHolds() + rank1.lockHolds() - holdsBefore).isLessThanOrEqualTo((1 + 2L) * MESSAGES);
        });
    }

    /** Work whose calls are counted. */
    @FunctionalInterface
    private interface Work {
        void run() throws Exception;
    }

    /** The invocations, per method ("class.name"), of the Portals API while {@code work} ran. */
    private static Map<String, Long> count(Work work) throws Exception {
        Path file = Files.createTempFile("call-count", ".jfr");
        try {
            try (Recording r = new Recording()) {
                r.enable("jdk.MethodTiming").with("filter", LIBRARY + ";" + PORTALS
                        ).with("period", "endChunk");
                r.start();
                work.run();
                r.stop();
                r.dump(file);
            }
            Map<String, Long> out = new TreeMap<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (e.getEventType().getName().equals("jdk.MethodTiming")) {
                    @Nullable RecordedMethod m = e.getValue("method");
                    if (m == null) {
                        throw new AssertionError("a method timing event without its method: " + e);
                    }
                    out.merge(m.getType().getName() + "." + m.getName(), e.getLong("invocations"), Long::sum);
                }
            }
            assertThat(out).as("JFR method timing recorded the Portals API").containsKey(LIBRARY + ".put");
            return out;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static long calls(Map<String, Long> counts, String method) {
        return counts.getOrDefault(method, 0L);
    }

    /** Every call into the public Portals API (its argument check, {@code required}, is no call). */
    private static long portalsCalls(Map<String, Long> counts) {
        long n = 0;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            if ((e.getKey().startsWith(LIBRARY + ".") || e.getKey().startsWith(PORTALS + "."))
                    && !e.getKey().endsWith(".required")) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** Waits until {@code condition} holds, yielding meanwhile. */
    private static void awaitCondition(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            Thread.yield();
        }
    }
}
