package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Stamp batching alone, on the times a test gives it: when a stamp asks at once and when an owed ask is paid. */
class StampBatcherTest {
    @Test
    void withoutAPeriodEveryStampAsksAndTheClockIsNotRead() {
        StampBatcher b = new StampBatcher(0);
        assertThat(b.readsClock()).isFalse();
        b.asked(0);
        assertThat(b.askDue(0)).isTrue();
    }

    @Test
    void aStampAsksAtOnceTheFirstTimeAndThenOncePerPeriod() {
        StampBatcher b = new StampBatcher(4000);
        assertThat(b.readsClock()).isTrue();
        assertThat(b.askDue(10_000)).as("never asked").isTrue();
        b.asked(10_000);
        assertThat(b.askDue(13_999)).isFalse();
        assertThat(b.askDue(14_000)).isTrue();
    }

    @Test
    void aStampAfterTheHostTookAPacketAnswersItAndAsksWithinThePeriod() {
        StampBatcher b = new StampBatcher(4000);
        b.asked(0);
        b.tookPacket();
        assertThat(b.askDue(1)).isTrue();
        b.stamped();
        assertThat(b.askDue(2)).as("the answer is stamped: batching again").isFalse();
    }

    @Test
    void anOwedAskIsPaidWhenThePeriodEndsOrAtOnceWhenTheHostPauses() {
        StampBatcher b = new StampBatcher(4000);
        b.asked(0);
        b.owe();
        assertThat(b.owes()).isTrue();
        assertThat(b.takeOwedAsk(false, 1000)).as("within the period").isFalse();
        assertThat(b.owes()).isTrue();
        assertThat(b.takeOwedAsk(false, 4000)).as("the period is over").isTrue();
        assertThat(b.owes()).isFalse();
        assertThat(b.takeOwedAsk(true, 4001)).as("nothing owed any more").isFalse();
        b.owe();
        assertThat(b.takeOwedAsk(true, 4002)).as("the host paused").isTrue();
    }

    @Test
    void aTokensMarksSettleWhatIsOwed() {
        StampBatcher b = new StampBatcher(4000);
        b.owe();
        b.settled();
        assertThat(b.owes()).isFalse();
        assertThat(b.takeOwedAsk(true, 0)).isFalse();
    }

    @Test
    void thePollSeesAPauseOnlyWhenNothingWasStampedSinceThePreviousPoll() {
        StampBatcher b = new StampBatcher(4000);
        assertThat(b.pausedSincePreviousPoll()).isTrue();
        b.stamped();
        assertThat(b.pausedSincePreviousPoll()).isFalse();
        assertThat(b.pausedSincePreviousPoll()).isTrue();
    }
}
