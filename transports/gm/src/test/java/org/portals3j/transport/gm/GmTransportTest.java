package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.transport.Transport;

/** Jobs of two and three ranks in this JVM over the real libgm, on tcp;ofi_rxm and shm. */
class GmTransportTest {
    private static final int SMALL = 100;
    private static final int LARGE = 100_000;

    private final Arena arena = Arena.ofShared();
    private final List<Recorder> recorders = new ArrayList<>();
    private List<Transport> endpoints = List.of();

    @AfterEach
    void closeAll() {
        endpoints.forEach(Transport::close);
    }

    private List<Transport> start(String provider, int ranks, Map<String, String> extra) throws Exception {
        GmTestSupport.assumeAvailable(provider);
        Map<String, String> options = new HashMap<>(extra);
        options.put(GmOptions.PROVIDER, provider);
        options.put(GmOptions.ACK_TIMEOUT_MILLIS, "1000");
        options.put(GmOptions.KEEPALIVE_MILLIS, "200");
        endpoints = GmTestSupport.start(ranks, options, recorders);
        return endpoints;
    }

    private static MemorySegment header(Arena arena, int value) {
        MemorySegment h = arena.allocate(8);
        h.set(ValueLayout.JAVA_INT, 0, value);
        return h;
    }

    private static int headerValue(Recorder.Received r) {
        return MemorySegment.ofArray(r.header()).get(ValueLayout.JAVA_INT_UNALIGNED, 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void smallAndLargeMessagesGoBothWays(String provider) throws Exception {
        start(provider, 2, Map.of());
        for (int from = 0; from < 2; from++) {
            int to = 1 - from;
            for (int length : new int[] {0, SMALL, LARGE}) {
                long token = from * 1000L + length;
                endpoints.get(from).send(to, header(arena, length), 4, GmTestSupport.pattern(arena, length, from), 0,
                        length, token);
                Recorder.Received r = recorders.get(to).next(GmTestSupport.PATIENCE);
                assertThat(r.source()).isEqualTo(from);
                assertThat(headerValue(r)).isEqualTo(length);
                assertThat(r.failed()).isFalse();
                assertThat(r.payload()).isEqualTo(GmTestSupport.patternBytes(length, from));
                GmTestSupport.await("completion of " + token, () -> recorders.get(0).completions.containsKey(token)
                        || recorders.get(1).completions.containsKey(token));
                assertThat(recorders.get(from).completions).containsEntry(token, true);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void messagesOfMixedSizesArriveInSendOrder(String provider) throws Exception {
        start(provider, 2, Map.of());
        Random random = new Random(19);
        int count = 150;
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = random.nextInt(4) == 0 ? 8193 + random.nextInt(40_000) : random.nextInt(9000);
            endpoints.get(0).send(1, header(arena, i), 4, GmTestSupport.pattern(arena, lengths[i], i), 0, lengths[i],
                    i);
        }
        for (int i = 0; i < count; i++) {
            Recorder.Received r = recorders.get(1).next(GmTestSupport.PATIENCE);
            assertThat(headerValue(r)).as("message %d", i).isEqualTo(i);
            assertThat(r.payload()).isEqualTo(GmTestSupport.patternBytes(lengths[i], i));
        }
        GmTestSupport.await("every completion", () -> recorders.get(0).completions.size() == count);
        assertThat(recorders.get(0).completions.values()).containsOnly(true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void largePayloadsMoveBetweenHeapAndNativeSegments(String provider) throws Exception {
        start(provider, 2, Map.of());
        byte[] heap = GmTestSupport.patternBytes(LARGE, 5);
        recorders.get(1).heapDestination = false;
        endpoints.get(0).send(1, header(arena, 1), 4, MemorySegment.ofArray(heap), 0, LARGE, 1);
        assertThat(recorders.get(1).next(GmTestSupport.PATIENCE).payload()).isEqualTo(heap);
        recorders.get(1).heapDestination = true;
        endpoints.get(0).send(1, header(arena, 2), 4, GmTestSupport.pattern(arena, LARGE, 6), 0, LARGE, 2);
        assertThat(recorders.get(1).next(GmTestSupport.PATIENCE).payload())
                .isEqualTo(GmTestSupport.patternBytes(LARGE, 6));
        endpoints.get(0).send(1, header(arena, 3), 4, MemorySegment.ofArray(heap), 1000, LARGE - 2000, 3);
        byte[] middle = new byte[LARGE - 2000];
        System.arraycopy(heap, 1000, middle, 0, middle.length);
        assertThat(recorders.get(1).next(GmTestSupport.PATIENCE).payload()).isEqualTo(middle);
        GmTestSupport.await("three completions", () -> recorders.get(0).completions.size() == 3);
        assertThat(recorders.get(0).completions.values()).containsOnly(true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void aDiscardedPayloadStillEndsTheMessageAndCompletesTheSend(String provider) throws Exception {
        start(provider, 2, Map.of());
        recorders.get(1).discard = true;
        endpoints.get(0).send(1, header(arena, 1), 4, GmTestSupport.pattern(arena, SMALL, 1), 0, SMALL, 1);
        endpoints.get(0).send(1, header(arena, 2), 4, GmTestSupport.pattern(arena, LARGE, 1), 0, LARGE, 2);
        for (int i = 1; i <= 2; i++) {
            Recorder.Received r = recorders.get(1).next(GmTestSupport.PATIENCE);
            assertThat(headerValue(r)).isEqualTo(i);
            assertThat(r.payload()).isEmpty();
            assertThat(r.failed()).isFalse();
        }
        GmTestSupport.await("two completions", () -> recorders.get(0).completions.size() == 2);
        assertThat(recorders.get(0).completions.values()).containsOnly(true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void aPayloadWhoseMemoryWentAwayFailsAtBothEnds(String provider) throws Exception {
        start(provider, 2, Map.of());
        MemorySegment small;
        MemorySegment large;
        try (Arena gone = Arena.ofShared()) {
            small = gone.allocate(SMALL);
            large = gone.allocate(LARGE);
        }
        endpoints.get(0).send(1, header(arena, 1), 4, small, 0, SMALL, 1);
        endpoints.get(0).send(1, header(arena, 2), 4, large, 0, LARGE, 2);
        for (int i = 1; i <= 2; i++) {
            Recorder.Received r = recorders.get(1).next(GmTestSupport.PATIENCE);
            assertThat(headerValue(r)).isEqualTo(i);
            assertThat(r.failed()).as("the message ends failed at the target").isTrue();
            assertThat(r.payload()).isEmpty();
        }
        GmTestSupport.await("two completions", () -> recorders.get(0).completions.size() == 2);
        assertThat(recorders.get(0).completions).containsEntry(1L, false).containsEntry(2L, false);
        endpoints.get(0).send(1, header(arena, 3), 4, GmTestSupport.pattern(arena, SMALL, 3), 0, SMALL, 3);
        assertThat(recorders.get(1).next(GmTestSupport.PATIENCE).payload())
                .isEqualTo(GmTestSupport.patternBytes(SMALL, 3)); // and the endpoint goes on
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void aSendCompletesNotDeliveredWhenItsPayloadCannotLandAtTheTarget(String provider) throws Exception {
        start(provider, 2, Map.of());
        recorders.get(1).goneDestination = true;
        endpoints.get(0).send(1, header(arena, 1), 4, GmTestSupport.pattern(arena, SMALL, 1), 0, SMALL, 1);
        endpoints.get(0).send(1, header(arena, 2), 4, GmTestSupport.pattern(arena, LARGE, 1), 0, LARGE, 2);
        for (int i = 1; i <= 2; i++) {
            assertThat(recorders.get(1).next(GmTestSupport.PATIENCE).failed()).isTrue();
        }
        GmTestSupport.await("two completions", () -> recorders.get(0).completions.size() == 2);
        assertThat(recorders.get(0).completions).containsEntry(1L, false).containsEntry(2L, false);
        assertThat(endpoints.get(0).isPeerAlive(1)).as("a lost payload is no peer failure").isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void threeRanksEachReachEveryRankItselfIncluded(String provider) throws Exception {
        start(provider, 3, Map.of());
        for (int from = 0; from < 3; from++) {
            for (int to = 0; to < 3; to++) {
                for (int length : new int[] {SMALL, LARGE}) {
                    endpoints.get(from).send(to, header(arena, from * 10 + to), 4,
                            GmTestSupport.pattern(arena, length, from), 0, length, from * 100L + to * 10 + length % 7);
                }
            }
        }
        for (int to = 0; to < 3; to++) {
            int[] next = new int[3];
            for (int i = 0; i < 6; i++) {
                Recorder.Received r = recorders.get(to).next(GmTestSupport.PATIENCE);
                assertThat(headerValue(r)).isEqualTo(r.source() * 10 + to);
                int expected = next[r.source()]++ == 0 ? SMALL : LARGE; // per-peer FIFO
                assertThat(r.payload()).isEqualTo(GmTestSupport.patternBytes(expected, r.source()));
            }
        }
        for (int from = 0; from < 3; from++) {
            Recorder rec = recorders.get(from);
            GmTestSupport.await("six completions", () -> rec.completions.size() == 6);
            assertThat(rec.completions.values()).containsOnly(true);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void aPeerThatClosesIsReportedAndSendsToItFail(String provider) throws Exception {
        start(provider, 3, Map.of());
        endpoints.get(1).close();
        for (int rank : new int[] {0, 2}) {
            Recorder rec = recorders.get(rank);
            GmTestSupport.await("rank " + rank + " hears that rank 1 failed", () -> rec.failedPeers.contains(1));
            assertThat(endpoints.get(rank).isPeerAlive(1)).isFalse();
            assertThat(endpoints.get(rank).isPeerAlive(rank)).isTrue();
        }
        assertThat(endpoints.get(1).isPeerAlive(1)).isFalse();
        endpoints.get(0).send(1, header(arena, 1), 4, GmTestSupport.pattern(arena, LARGE, 1), 0, LARGE, 77);
        GmTestSupport.await("the send to the closed rank completes", () -> recorders.get(0).completions
                .containsKey(77L));
        assertThat(recorders.get(0).completions).containsEntry(77L, false);
        endpoints.get(0).send(2, header(arena, 2), 4, GmTestSupport.pattern(arena, SMALL, 1), 0, SMALL, 78);
        assertThat(recorders.get(2).next(GmTestSupport.PATIENCE).payload())
                .isEqualTo(GmTestSupport.patternBytes(SMALL, 1)); // the others go on
        assertThatThrownBy(() -> endpoints.get(1).send(0, header(arena, 0), 4, MemorySegment.NULL, 0, 0, 1))
                .isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp"})
    void badArgumentsAreRejectedAndLoseNothing(String provider) throws Exception {
        start(provider, 2, Map.of());
        Transport t = endpoints.get(0);
        MemorySegment h = arena.allocate(512);
        MemorySegment p = arena.allocate(64);
        assertThatThrownBy(() -> t.send(2, h, 4, p, 0, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a rank");
        assertThatThrownBy(() -> t.send(-1, h, 4, p, 0, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.send(1, h, 257, p, 0, 0, 1)).hasMessageContaining("max 256");
        assertThatThrownBy(() -> t.send(1, h, 4, p, 60, 5, 1)).hasMessageContaining("outside");
        assertThatThrownBy(() -> t.send(1, h, 4, p, -1, 5, 1)).isInstanceOf(IllegalArgumentException.class);
        t.send(1, h, 4, p, 0, 64, 9); // the endpoint still works
        assertThat(recorders.get(1).next(GmTestSupport.PATIENCE).payloadLength()).isEqualTo(64);
        assertThat(recorders.get(0).completions).doesNotContainKey(1L);
        assertThatThrownBy(() -> t.start(new Recorder())).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp"})
    void creditsHoldBackASenderThatOutrunsItsReceiverWithoutLosingAnything(String provider) throws Exception {
        start(provider, 2, Map.of(GmOptions.CREDITS, "1"));
        int count = 100;
        for (int i = 0; i < count; i++) {
            int length = i % 3 == 0 ? 20_000 : 64;
            endpoints.get(0).send(1, header(arena, i), 4, GmTestSupport.pattern(arena, length, i), 0, length, i);
        }
        for (int i = 0; i < count; i++) {
            assertThat(headerValue(recorders.get(1).next(GmTestSupport.PATIENCE))).isEqualTo(i);
        }
        GmTestSupport.await("every completion", () -> recorders.get(0).completions.size() == count);
        assertThat(recorders.get(0).completions.values()).containsOnly(true);
        assertThat(endpoints.get(1).counters()).containsEntry("protocolErrors", 0L);
    }
}
