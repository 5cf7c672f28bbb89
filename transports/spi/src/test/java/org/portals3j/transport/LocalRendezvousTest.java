package org.portals3j.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LocalRendezvousTest {

    @Test
    void lookupWaitsForTheValueAnotherRankPublishesLater() throws Exception {
        LocalRendezvous rendezvous = new LocalRendezvous();
        CompletableFuture<String> lookup = CompletableFuture.supplyAsync(() -> {
            try {
                return rendezvous.lookup(1, "udp.address", Duration.ofSeconds(10));
            } catch (TransportException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(50);
        assertThat(lookup).isNotDone();
        rendezvous.publish(1, "udp.address", "127.0.0.1:4000");
        assertThat(lookup.get(10, TimeUnit.SECONDS)).isEqualTo("127.0.0.1:4000");
    }

    @Test
    void lookupOfAValueNobodyPublishesTimesOutWithAnExplanation() {
        LocalRendezvous rendezvous = new LocalRendezvous();
        assertThatThrownBy(() -> rendezvous.lookup(3, "udp.address", Duration.ofMillis(20)))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("rank 3 did not publish 'udp.address'");
    }

    @Test
    void republishingADifferentValueIsRefusedAndKeepsTheFirst() throws Exception {
        LocalRendezvous rendezvous = new LocalRendezvous();
        rendezvous.publish(0, "k", "a");
        rendezvous.publish(0, "k", "a");
        assertThatThrownBy(() -> rendezvous.publish(0, "k", "b")).isInstanceOf(TransportException.class);
        assertThat(rendezvous.lookup(0, "k", Duration.ZERO)).isEqualTo("a");
    }

    @Test
    void aJobHasOneInJvmRendezvousWhoeverAsks() {
        Job job = Job.local(2);
        assertThat(LocalRendezvous.of(job)).isSameAs(LocalRendezvous.of(job));
        assertThat(LocalRendezvous.of(job)).isNotSameAs(LocalRendezvous.of(Job.local(2)));
    }
}
