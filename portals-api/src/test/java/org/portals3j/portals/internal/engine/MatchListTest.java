package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.InsertPosition;

/** The match list against a plain list model: list order and the candidate walk must agree with it. */
class MatchListTest {
    private int slots;

    private MatchEntryState entry(long bits, long ignore) {
        MatchEntryState me = new MatchEntryState(slots++);
        me.matchBits = bits;
        me.ignoreBits = ignore;
        return me;
    }

    private static List<MatchEntryState> walk(MatchList list) {
        List<MatchEntryState> out = new ArrayList<>();
        for (MatchEntryState e = list.head; e != null; e = e.next) {
            out.add(e);
        }
        return out;
    }

    private static List<MatchEntryState> candidates(MatchList list, long bits) {
        MatchList.Cursor c = new MatchList.Cursor();
        c.start(list, bits);
        List<MatchEntryState> out = new ArrayList<>();
        for (MatchEntryState e = c.next(); e != null; e = c.next()) {
            out.add(e);
        }
        return out;
    }

    @Test
    void randomInsertsAndRemovesKeepListOrderAndTheCandidateWalkMatchesTheModel() {
        Random random = new Random(12345);
        MatchList list = new MatchList();
        List<MatchEntryState> model = new ArrayList<>();
        long[] keys = {0L, 1L, 7L, Long.MIN_VALUE, -1L};
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(10);
            if (op < 7 || model.isEmpty()) {
                long bits = keys[random.nextInt(keys.length)];
                long ignore = random.nextInt(4) == 0 ? (random.nextBoolean() ? -1L : 0xFFL) : 0L;
                MatchEntryState me = entry(bits, ignore);
                InsertPosition pos = random.nextBoolean() ? InsertPosition.BEFORE : InsertPosition.AFTER;
                if (model.isEmpty() || random.nextInt(3) == 0) {
                    list.insert(me, null, pos);
                    if (pos == InsertPosition.BEFORE) {
                        model.add(0, me);
                    } else {
                        model.add(me);
                    }
                } else {
                    int at = random.nextInt(model.size());
                    MatchEntryState anchor = model.get(at);
                    list.insert(me, anchor, pos);
                    model.add(pos == InsertPosition.BEFORE ? at : at + 1, me);
                }
            } else {
                MatchEntryState victim = model.remove(random.nextInt(model.size()));
                list.remove(victim);
            }
            if (step % 500 == 0) {
                assertThat(walk(list)).containsExactlyElementsOf(model);
                assertThat(list.length).isEqualTo(model.size());
                for (long k : keys) {
                    List<MatchEntryState> expected = model.stream().filter(e -> e.matchesBits(k) || !e.exact())
                            .toList();
                    assertThat(candidates(list, k)).as("candidates for %x", k).containsExactlyElementsOf(expected);
                }
            }
        }
    }

    @Test
    void insertingRepeatedlyBetweenTheSameNeighboursRenumbersWithoutLosingOrder() {
        MatchList list = new MatchList();
        MatchEntryState first = entry(1, 0);
        MatchEntryState last = entry(1, 0);
        list.insert(first, null, InsertPosition.AFTER);
        list.insert(last, null, InsertPosition.AFTER);
        List<MatchEntryState> model = new ArrayList<>(List.of(first, last));
        // Each new entry goes right before `last`: the gap between neighbours halves every time.
        for (int i = 0; i < 200; i++) {
            MatchEntryState me = entry(1, 0);
            list.insert(me, last, InsertPosition.BEFORE);
            model.add(model.size() - 1, me);
        }
        assertThat(walk(list)).containsExactlyElementsOf(model);
        assertThat(candidates(list, 1)).containsExactlyElementsOf(model);
        for (int i = 1; i < model.size(); i++) {
            assertThat(model.get(i).order).isGreaterThan(model.get(i - 1).order);
        }
    }

    @Test
    void anExactLookupAmongManyEntriesVisitsOnlyItsBucketAndTheWildcards() {
        MatchList list = new MatchList();
        for (int i = 0; i < 10_000; i++) {
            list.insert(entry(i, 0), null, InsertPosition.AFTER);
        }
        MatchEntryState wildcard = entry(0, -1L);
        list.insert(wildcard, null, InsertPosition.AFTER);
        List<MatchEntryState> c = candidates(list, 9_999);
        assertThat(c).hasSize(2);
        assertThat(c.get(0).matchBits).isEqualTo(9_999);
        assertThat(c.get(1)).isSameAs(wildcard);
        assertThat(list.index.size()).isEqualTo(10_000);
    }

    @Test
    void removingTheLastEntryOfABucketRemovesTheBucket() {
        MatchList list = new MatchList();
        MatchEntryState a = entry(5, 0);
        list.insert(a, null, InsertPosition.AFTER);
        assertThat(list.index.get(5)).isNotNull();
        list.remove(a);
        ExactIndex.@Nullable Bucket gone = list.index.get(5);
        assertThat(gone).isNull();
        assertThat(list.head).isNull();
        assertThat(list.length).isZero();
    }
}
