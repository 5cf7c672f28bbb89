package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.TckTransport;

/** A job's start is bounded generously whatever the patience: shortening the patience never fails a start. */
class StartPatienceTest {
    private final String before = System.getProperty(TckTransport.PATIENCE_PROPERTY, "");

    @AfterEach
    void restore() {
        if (before.isEmpty()) {
            System.getProperties().remove(TckTransport.PATIENCE_PROPERTY);
        } else {
            System.setProperty(TckTransport.PATIENCE_PROPERTY, before);
        }
    }

    @Test
    void aShortPatienceLeavesAStartAMinute() {
        System.setProperty(TckTransport.PATIENCE_PROPERTY, "2000");
        assertThat(TckTransport.patience()).isEqualTo(Duration.ofSeconds(2));
        assertThat(TckTransport.startPatience()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aLongPatienceLeavesAStartItsTrafficPatience() {
        System.setProperty(TckTransport.PATIENCE_PROPERTY, "30000");
        assertThat(TckTransport.startPatience()).isEqualTo(Duration.ofSeconds(90));
    }
}
