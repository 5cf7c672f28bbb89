package org.portals3j.transport.gm.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CreditsTest {

    @Test
    void aSenderSpendsOneCreditPerMessageAndStopsAtZero() {
        Credits c = new Credits(3);
        assertThat(c.tryTake()).isTrue();
        assertThat(c.tryTake()).isTrue();
        assertThat(c.tryTake()).isTrue();
        assertThat(c.tryTake()).isFalse();
        assertThat(c.available()).isZero();
        assertThat(c.give(2)).isTrue();
        assertThat(c.available()).isEqualTo(2);
    }

    @Test
    void creditsThePeerNeverHadAreAViolationAndChangeNothing() {
        Credits c = new Credits(4);
        c.tryTake();
        assertThat(c.give(2)).isFalse();
        assertThat(c.give(-1)).isFalse();
        assertThat(c.available()).isEqualTo(3);
        assertThat(c.give(1)).isTrue();
        assertThat(c.give(1L << 40)).isFalse();
        assertThat(c.available()).isEqualTo(4);
        assertThatThrownBy(() -> new Credits(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void returnsAreDueAtHalfTheCreditsAndTakenAllAtOnce() {
        CreditReturns r = new CreditReturns(8);
        for (int i = 0; i < 3; i++) {
            r.reposted();
        }
        assertThat(r.due()).isFalse();
        r.reposted();
        assertThat(r.due()).isTrue();
        assertThat(r.take()).isEqualTo(4);
        assertThat(r.take()).isZero();
        assertThat(r.due()).isFalse();
    }

    @Test
    void withOneCreditEveryReturnIsDue() {
        CreditReturns r = new CreditReturns(1);
        r.reposted();
        assertThat(r.due()).isTrue();
    }
}
