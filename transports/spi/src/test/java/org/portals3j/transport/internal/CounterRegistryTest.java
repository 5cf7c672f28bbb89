package org.portals3j.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CounterRegistryTest {

    @Test
    void snapshotHasEveryNameInAllocationOrderWithItsValue() {
        CounterRegistry r = new CounterRegistry(4);
        Counter b = r.counter("b.second", "allocated first");
        Counter a = r.counter("a.first", "allocated second");
        AtomicLong level = new AtomicLong(7);
        r.gauge("c.level", "read when the snapshot is taken", level::get);
        b.increment();
        b.add(4);
        a.incrementShared();
        a.addShared(10);
        level.set(9);

        assertThat(r.snapshot()).containsExactly(
                Map.entry("b.second", 5L), Map.entry("a.first", 11L),
                Map.entry("c.level", 9L));
        assertThat(List.copyOf(r.snapshot().keySet())).containsExactly("b.second", "a.first", "c.level");
        assertThat(Optional.ofNullable(r.description("a.first"))).contains("allocated second");
        assertThat(Optional.ofNullable(r.description("nobody"))).isEmpty();
        assertThat(r.size()).isEqualTo(3);
        assertThat(b.get()).isEqualTo(5);
    }

    @Test
    void setStoresTheValue() {
        CounterRegistry r = new CounterRegistry(1);
        Counter peak = r.counter("peak", "a high-water mark");
        peak.set(42);
        assertThat(peak.get()).isEqualTo(42);
        assertThat(r.snapshot()).containsEntry("peak", 42L);
    }

    @Test
    void aDuplicateNameIsRejectedAndTakesNoSlot() {
        CounterRegistry r = new CounterRegistry(2);
        r.counter("drop.mac", "first");
        assertThatThrownBy(() -> r.counter("drop.mac", "again"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("drop.mac");
        assertThatThrownBy(() -> r.gauge("drop.mac", "again", () -> 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.counter(" ", "blank")).isInstanceOf(IllegalArgumentException.class);
        assertThat(r.size()).isEqualTo(1);
        r.counter("drop.crc", "still room for one");
        assertThat(r.snapshot()).containsOnlyKeys("drop.mac", "drop.crc");
    }

    @Test
    void theRegistryIsBounded() {
        CounterRegistry r = new CounterRegistry(2);
        r.counter("one", "");
        r.gauge("two", "", () -> 2);
        assertThatThrownBy(() -> r.counter("three", ""))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("all 2");
        assertThat(r.capacity()).isEqualTo(2);
        assertThatThrownBy(() -> new CounterRegistry(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countersAreTwoCacheLinesApartAndFromTheArraysEnds() throws Exception {
        CounterRegistry r = new CounterRegistry(3);
        Counter c0 = r.counter("c0", "");
        Counter c1 = r.counter("c1", "");
        Counter c2 = r.counter("c2", "");
        int i0 = index(c0);
        int i1 = index(c1);
        int i2 = index(c2);
        int length = values(c0).length;
        assertThat(values(c1)).isSameAs(values(c0));
        assertThat(i0).isGreaterThanOrEqualTo(CounterRegistry.SLOT_LONGS);
        assertThat(i1 - i0).isGreaterThanOrEqualTo(CounterRegistry.SLOT_LONGS);
        assertThat(i2 - i1).isGreaterThanOrEqualTo(CounterRegistry.SLOT_LONGS);
        assertThat(length - 1 - i2).isGreaterThanOrEqualTo(CounterRegistry.SLOT_LONGS - 1);
        assertThat(CounterRegistry.SLOT_LONGS * Long.BYTES).isEqualTo(128);
    }

    @Test
    void sharedIncrementsFromManyThreadsLoseNothing() throws Exception {
        CounterRegistry r = new CounterRegistry(2);
        Counter shared = r.counter("shared", "");
        Counter neighbour = r.counter("neighbour", "one writer beside them");
        int perThread = 200_000;
        Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perThread; i++) {
                    shared.incrementShared();
                }
            });
        }
        for (int i = 0; i < perThread; i++) {
            neighbour.increment();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s finished", t).isFalse();
        }
        assertThat(r.snapshot()).containsEntry("shared", (long) perThread * threads.length)
                .containsEntry("neighbour", (long) perThread);
    }

    @Test
    void aReaderSeesASingleWritersCountsNeverGoingBackAndReachingTheTotal() throws Exception {
        CounterRegistry r = new CounterRegistry(1);
        Counter c = r.counter("c", "");
        long total = 2_000_000;
        Thread writer = Thread.ofPlatform().start(() -> {
            for (long i = 0; i < total; i++) {
                c.increment();
            }
        });
        long last = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (last < total && System.nanoTime() < deadline) {
            long now = r.snapshot().getOrDefault("c", -1L);
            assertThat(now).as("monotonic").isGreaterThanOrEqualTo(last);
            last = now;
        }
        writer.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(c.get()).isEqualTo(total);
    }

    @Test
    void incrementingAllocatesNothing() {
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        CounterRegistry r = new CounterRegistry(2);
        Counter single = r.counter("single", "");
        Counter shared = r.counter("shared", "");
        for (int i = 0; i < 100_000; i++) { // past the interpreter and the first compilations
            bump(single, shared);
        }
        long tid = Thread.currentThread().threadId();
        // A compilation or deoptimisation landing inside one round allocates on this thread; the steady state is
        // the best of several rounds, which does not depend on when the JIT runs on a loaded machine.
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 1_000_000; i++) {
                bump(single, shared);
            }
            fewest = Math.min(fewest, mx.getThreadAllocatedBytes(tid) - before);
        }
        assertThat(fewest).as("bytes allocated by 4M increments, best of 5 rounds").isLessThan(1024);
        assertThat(single.get()).isEqualTo(2 * 5_100_000L);
    }

    private static void bump(Counter single, Counter shared) {
        single.increment();
        single.add(1);
        shared.incrementShared();
        shared.addShared(1);
    }

    private static int index(Counter c) throws ReflectiveOperationException {
        Field f = Counter.class.getDeclaredField("index");
        f.setAccessible(true);
        return f.getInt(c);
    }

    private static long[] values(Counter c) throws ReflectiveOperationException {
        Field f = Counter.class.getDeclaredField("values");
        f.setAccessible(true);
        if (f.get(c) instanceof long[] values) {
            return values;
        }
        throw new AssertionError("Counter.values is not a long[]");
    }
}
