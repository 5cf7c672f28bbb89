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
 * blocking eager send and of blocking receives, small and larger, waiting before their message. Each
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
    void aBlockingEagerSendMakesThreePortalsCallsAndTakesTheRankLockOnce() throws Exception {
        TwoRanks.run((rank0, rank1, arena) -> {
            SendOperation op = new SendOperation(arena.allocate(8)); // reused, as a thread's blocking sends are
            long holdsBefore = rank0.lockHolds() + rank1.lockHolds();
            Map<String, Long> counts = count(() -> {
                for (int i = 0; i < MESSAGES; i++) { // to rank 1, which receives nothing meanwhile: eager, unexpected
                    op.reuse(op.buffer);
                    rank0.startSend(op, 1, MatchBits.of(CONTEXT, 0, TAG), false);
                    rank0.await(op);
                    assertThat(op.errorClass()).isEqualTo(ErrorClass.SUCCESS);
                }
            });
            // PtlPut, PtlEQGet of SEND_START and of SEND_END; the first send binds the MD the others reuse
            assertThat(calls(counts, LIBRARY + ".put")).isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
            assertThat(calls(counts, PORTALS + ".mdBind")).isBetween(1L, 1L + STRAY);
            assertThat(calls(counts, LIBRARY + ".mdUnlink")).isLessThanOrEqualTo(STRAY);
            assertThat(calls(counts, LIBRARY + ".eqGet")).isLessThanOrEqualTo(2L * MESSAGES + STRAY);
            assertThat(portalsCalls(counts)).isLessThanOrEqualTo(3L * MESSAGES + STRAY);
            assertThat(rank0.lockHolds() + rank1.lockHolds() - holdsBefore).isLessThanOrEqualTo(MESSAGES);
            assertThat(rank1.probe(MatchBits.of(CONTEXT, 0, TAG), MatchBits.ignore(false, false))).isNotNull();
        });
    }

    @Test
    void aSmallBlockingReceivePendingBeforeItsMessageMakesTwoPortalsCallsAndTakesTheRankLockTwice() throws Exception {
        Map<String, Long> counts = pingOneWay(8);
        // the receive: PtlEQWait (PUT_START), PtlEQGet (PUT_END), and the copy out of the region; the send: 3
        assertThat(calls(counts, LIBRARY + ".meInsert")).isLessThanOrEqualTo(STRAY);
        assertThat(calls(counts, PORTALS + ".mdAttach")).isLessThanOrEqualTo(STRAY);
        assertThat(calls(counts, LIBRARY + ".mdUpdate")).isLessThanOrEqualTo(STRAY);
        assertThat(calls(counts, LIBRARY + ".eqWaitInterruptibly"))
                .isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
        assertThat(calls(counts, LIBRARY + ".eqGet")).isLessThanOrEqualTo((2 + 1L) * MESSAGES + STRAY);
        assertThat(portalsCalls(counts)).isLessThanOrEqualTo((3 + 2L) * MESSAGES + STRAY);
    }

    @Test
    void aLargerBlockingReceivePostedBeforeItsMessageMakesFourPortalsCallsAndTakesTheRankLockTwice() throws Exception {
        int bytes = 2 * (int) Receives.COPY_LIMIT;
        Map<String, Long> counts = pingOneWay(bytes);
        // the receive: PtlEQGet finding the queue empty, PtlMDUpdate switching the entry kept from the previous
        // receive on (the first inserts and attaches it), PtlEQWait (PUT_START), PtlEQGet (PUT_END); the send: 3;
        // and a credit report (its put, and the sender's PtlEQGet of PUT_START and PUT_END) per quarter region
        assertThat(calls(counts, LIBRARY + ".meInsert")).isBetween(1L, 1L + STRAY);
        assertThat(calls(counts, PORTALS + ".mdAttach")).isBetween(1L, 1L + STRAY);
        assertThat(calls(counts, LIBRARY + ".meUnlink")).isLessThanOrEqualTo(STRAY);
        assertThat(calls(counts, LIBRARY + ".mdUpdate")).isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
        assertThat(calls(counts, LIBRARY + ".eqWaitInterruptibly"))
                .isBetween((long) MESSAGES, (long) MESSAGES + STRAY);
        assertThat(calls(counts, LIBRARY + ".eqGet"))
                .isLessThanOrEqualTo((2 + 2L) * MESSAGES + 2 * creditReports(bytes) + STRAY);
        assertThat(portalsCalls(counts)).isLessThanOrEqualTo((3 + 4L) * MESSAGES + 3 * creditReports(bytes) + STRAY);
    }

    /**
     * Rank 1's thread receives {@link #MESSAGES} messages of {@code bytes} bytes, each blocking receive in place (and
     * its thread the blocker) before rank 0 sends, from one reused operation, the message it waits for. Checks the
     * data and the rank-lock holds (the receive: one to post and become the blocker, one to handle what
     * {@code PtlEQWait} returned; the send: one), and returns the Portals calls.
     */
    private static Map<String, Long> pingOneWay(int bytes) throws Exception {
        AtomicReference<Map<String, Long>> result = new AtomicReference<>(Map.of());
        TwoRanks.run((rank0, rank1, arena) -> {
            SendOperation send = new SendOperation(arena.allocate(bytes));
            ReceiveOperation[] receives = new ReceiveOperation[MESSAGES];
            for (int i = 0; i < MESSAGES; i++) {
                receives[i] = new ReceiveOperation(arena.allocate(bytes), MatchBits.of(CONTEXT, 0, TAG),
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
                    send.reuse(send.buffer);
                    send.buffer.set(ValueLayout.JAVA_INT, 0, i);
                    rank0.startSend(send, 1, MatchBits.of(CONTEXT, 0, TAG), false);
                    rank0.await(send);
                }
                receiver.join();
            });
            Throwable f = failure.get();
            if (f != null) {
                throw new AssertionError("the receiver failed", f);
            }
            for (int i = 0; i < MESSAGES; i++) {
                assertThat(receives[i].bytes()).isEqualTo(bytes);
                assertThat(receives[i].buffer.get(ValueLayout.JAVA_INT, 0)).isEqualTo(i);
            }
            assertThat(calls(counts, LIBRARY + ".put"))
                    .isBetween((long) MESSAGES, (long) MESSAGES + creditReports(bytes) + STRAY);
            assertThat(calls(counts, PORTALS + ".mdBind")).isBetween(1L, 1L + STRAY);
            assertThat(rank0.lockHolds() + rank1.lockHolds() - holdsBefore).isLessThanOrEqualTo((1 + 2L) * MESSAGES);
            result.set(counts);
        });
        return result.get();
    }

    /** The credit reports the receiver sends for {@link #MESSAGES} eager messages of {@code bytes} bytes. */
    private static long creditReports(int bytes) {
        return (long) MESSAGES * MpiConfig.roundUp(bytes) / (MpiConfig.DEFAULT.creditBytes() / 4);
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
