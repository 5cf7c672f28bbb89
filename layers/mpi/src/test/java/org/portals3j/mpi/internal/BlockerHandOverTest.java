package org.portals3j.mpi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.Portals;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/** A thread whose operation another thread's blocked wait completed looks again rather than blocks. */
class BlockerHandOverTest {
    private static final int CONTEXT = 0;

    @Test
    void aWaitWhoseReceiveTheBlockerCompletedDoesNotBlock() throws Exception {
        Job job = Job.builder(2).build();
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            PointToPoint rank0 = new PointToPoint(Portals.create(job, endpoints.get(0)), 0, MpiConfig.DEFAULT);
            PointToPoint rank1 = new PointToPoint(Portals.create(job, endpoints.get(1)), 1, MpiConfig.DEFAULT);
            long ignore = MatchBits.ignore(false, false);
            // Y's receive (tag 2), and X's (tag 1), which never completes: X stays rank 0's blocker until interrupted
            ReceiveOperation forY = new ReceiveOperation(arena.allocate(8), MatchBits.of(CONTEXT, 1, 2), ignore, null);
            ReceiveOperation forX = new ReceiveOperation(arena.allocate(8), MatchBits.of(CONTEXT, 1, 1), ignore, null);
            rank0.startReceive(forY);
            rank0.startReceive(forX);
            AtomicReference<@Nullable Throwable> xFailure = new AtomicReference<>();
            Thread x = Thread.ofPlatform().name("blocker-x").start(() -> {
                try {
                    rank0.await(forX);
                } catch (MpiError interrupted) {
                    // the end of its wait, as intended
                } catch (Throwable e) {
                    xFailure.set(e);
                }
            });
            awaitCondition(() -> rank0.blocker() == x);

            // Y: a wait that checks its condition between idle rounds (as waitAny and the agreements do)
            CountDownLatch looked = new CountDownLatch(1);
            CountDownLatch again = new CountDownLatch(1);
            AtomicReference<@Nullable Throwable> yFailure = new AtomicReference<>();
            Thread y = Thread.ofPlatform().name("waiter-y").start(() -> {
                try {
                    rank0.idleRound(true);
                    assertThat(forY.isDone()).isFalse();
                    looked.countDown();
                    again.await();
                    rank0.idleRound(false); // its receive is done by now: this round must not block
                } catch (Throwable e) {
                    yFailure.set(e);
                }
            });
            looked.await();

            // the message Y waits for: X, blocked, takes its events and completes Y's receive
            SendOperation send = new SendOperation(arena.allocate(8));
            rank1.startSend(send, 0, MatchBits.of(CONTEXT, 1, 2), false);
            awaitCondition(forY::isDone);
            x.interrupt();
            x.join();
            noFailure("X", xFailure.get());
            assertThat(rank0.blocker()).isNull();
            // nothing left for Y to drain: only an event already handled could tell it its receive is done
            assertThat(rank0.progress()).isZero();

            again.countDown();
            awaitCondition(() -> !y.isAlive() || rank0.blocker() == y);
            boolean blocked = rank0.blocker() == y;
            if (blocked) {
                y.interrupt();
            }
            y.join();
            assertThat(blocked).as("Y blocked for an event though its receive was done").isFalse();
            noFailure("Y", yFailure.get());
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    private static void noFailure(String thread, @Nullable Throwable failure) {
        if (failure != null) {
            throw new AssertionError("thread " + thread + " failed", failure);
        }
    }

    /** Waits until {@code condition} holds, yielding meanwhile. */
    private static void awaitCondition(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            Thread.yield();
        }
    }
}
