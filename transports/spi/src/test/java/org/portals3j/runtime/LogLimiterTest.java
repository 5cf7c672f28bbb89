package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogLimiterTest {

    @Test
    void aBurstPassesThenOneLinePerIntervalAndTheHeldBackAreCounted() {
        AtomicLong now = new AtomicLong();
        List<String> out = new ArrayList<>();
        LogLimiter limiter = new LogLimiter(out::add, 3, 1_000, now::get);
        for (int i = 0; i < 10; i++) {
            limiter.accept("line " + i);
        }
        assertThat(out).containsExactly("line 0", "line 1", "line 2");
        now.addAndGet(1_000);
        limiter.accept("line 10");
        limiter.accept("line 11");
        assertThat(out).containsExactly("line 0", "line 1", "line 2", "line 10 (and 7 more such lines not shown)");
        now.addAndGet(1_000_000);
        for (int i = 12; i < 15; i++) {
            limiter.accept("line " + i);
        }
        assertThat(out).hasSize(7).endsWith("line 12 (and 1 more such lines not shown)", "line 13", "line 14");
    }
}
