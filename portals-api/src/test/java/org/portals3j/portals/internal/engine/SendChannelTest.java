package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A send channel's turns ({@link SendChannel}): given out in order, each waiting for the one before it to pass. */
class SendChannelTest {

    @Test
    void turnsFollowOneAnotherInTheOrderGiven() {
        SendChannel channel = new SendChannel();
        long first = channel.issued++;
        long second = channel.issued++;
        assertThat(first).isZero();
        assertThat(second).isEqualTo(1);
        channel.awaitTurn(first);
        channel.pass(first);
        channel.awaitTurn(second);
        channel.pass(second);
        assertThat(channel.issued).isEqualTo(2);
    }

    @Test
    void aTurnWaitsUntilTheOneBeforeItPasses() throws InterruptedException {
        SendChannel channel = new SendChannel();
        long first = channel.issued++;
        long second = channel.issued++;
        channel.awaitTurn(first);
        AtomicBoolean through = new AtomicBoolean();
        Thread next = Thread.ofPlatform().daemon().start(() -> {
            channel.awaitTurn(second);
            through.set(true);
        });
        // parked in awaitTurn (its only wait): surely not through yet
        while (next.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        assertThat(through).isFalse();
        channel.pass(first);
        next.join();
        assertThat(through).isTrue();
    }
}
