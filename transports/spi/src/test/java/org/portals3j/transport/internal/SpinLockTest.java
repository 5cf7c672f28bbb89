package org.portals3j.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SpinLockTest {

    @Test
    void threadsIncrementingUnderTheLockLoseNoUpdate() throws Exception {
        SpinLock lock = new SpinLock();
        long[] counter = new long[1];
        int perThread = 200_000;
        Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perThread; i++) {
                    lock.lock();
                    try {
                        counter[0]++; // a plain read-modify-write: only mutual exclusion keeps it exact
                    } finally {
                        lock.unlock();
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s finished", t).isFalse();
        }
        assertThat(counter[0]).isEqualTo((long) perThread * threads.length);
    }

    @Test
    void tryLockFailsWhileAnotherThreadHoldsTheLockAndSucceedsAfterUnlock() throws Exception {
        SpinLock lock = new SpinLock();
        lock.lock();
        AtomicBoolean got = new AtomicBoolean(true);
        Thread other = Thread.ofPlatform().start(() -> got.set(lock.tryLock()));
        other.join();
        assertThat(got).as("tryLock by another thread while held").isFalse();
        lock.unlock();
        assertThat(lock.tryLock()).as("tryLock once free").isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
    }

    @Test
    void aWaiterThatBackedOffToParkingGetsTheLockOnceItIsReleased() throws Exception {
        SpinLock lock = new SpinLock();
        lock.lock();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch acquired = new CountDownLatch(1);
        Thread waiter = Thread.ofPlatform().start(() -> {
            started.countDown();
            lock.lock();
            acquired.countDown();
            lock.unlock();
        });
        started.await();
        Thread.sleep(50); // long past spinning and yielding: the waiter parks in periods of at most 100 us
        assertThat(acquired.getCount()).as("acquired while held").isEqualTo(1);
        lock.unlock();
        assertThat(acquired.await(10, TimeUnit.SECONDS)).as("acquired after unlock").isTrue();
        waiter.join();
    }

    @Test
    void takingTheLockAgainFromItsHolderIsRefusedInsteadOfWaitingForEver() {
        SpinLock lock = new SpinLock();
        lock.lock();
        try {
            assertThatThrownBy(lock::lock).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not reentrant");
            assertThat(lock.isHeldByCurrentThread()).as("still held by its first taker").isTrue();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void theBackOffRoundGrowsUntilTheParkPeriodIsAtItsLongestAndThenStays() {
        int round = 0;
        for (int step = 0; step < 300; step++) {
            int next = SpinLock.backOff(this, round);
            assertThat(next).as("round %d", round).isEqualTo(Math.min(round + 1, 200 + 20 + 7));
            round = next;
        }
        assertThat(SpinLock.backOff(this, Integer.MAX_VALUE - 1)).as("a round past the last never overflows")
                .isEqualTo(227);
    }
}
