package org.portals3j.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JobKeyTest {

    @Test
    void hexRoundTripsAndEqualKeysShareAFingerprint() {
        JobKey key = JobKey.random();
        JobKey copy = JobKey.fromHex(key.toHex());
        assertThat(copy).isEqualTo(key);
        assertThat(copy.fingerprint()).isEqualTo(key.fingerprint()).hasSize(16);
        assertThat(JobKey.random()).isNotEqualTo(key);
    }

    @Test
    void toStringNeverShowsTheSecret() {
        JobKey key = JobKey.random();
        assertThat(key.toString()).doesNotContain(key.toHex()).contains(key.fingerprint());
        assertThat(Job.builder(1).key(key).build().toString()).doesNotContain(key.toHex());
    }

    @Test
    void malformedKeysAreRefusedWithAHowTo() {
        assertThatThrownBy(() -> JobKey.fromHex("abc")).hasMessageContaining("64 hex digits")
                .hasMessageContaining("openssl rand -hex 32");
        assertThatThrownBy(() -> JobKey.fromHex("z".repeat(64))).hasMessageContaining("hex digits");
    }
}
