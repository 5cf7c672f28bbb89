package org.portals3j.transport.gm.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RegistrationCacheTest {
    private final FakeRegistrar registrar = new FakeRegistrar();
    private final RegistrationCache cache = new RegistrationCache(registrar, 2);

    @Test
    void aRegionInsideACachedRegistrationReusesIt() {
        RegistrationCache.Registration a = cache.acquire(1000, 500);
        cache.release(a);
        RegistrationCache.Registration b = cache.acquire(1100, 400);
        assertThat(b).isSameAs(a);
        assertThat(b.key()).isEqualTo(a.key());
        assertThat(registrar.registrations).isEqualTo(1);
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(1);
        RegistrationCache.Registration c = cache.acquire(1100, 401); // one byte beyond: a miss
        assertThat(c).isNotSameAs(a);
        assertThat(registrar.registrations).isEqualTo(2);
    }

    @Test
    void aMissEvictsTheLeastRecentlyUsedRegistrationNobodyHolds() {
        cache.release(cache.acquire(0, 10));
        cache.release(cache.acquire(100, 10));
        cache.release(cache.acquire(0, 10)); // 0 is now the more recent
        cache.release(cache.acquire(200, 10));
        assertThat(registrar.live).extracting(r -> r[0]).containsExactlyInAnyOrder(0L, 200L);
        assertThat(registrar.deregistrations).isEqualTo(1);
    }

    @Test
    void whenEveryEntryIsHeldARegionIsRegisteredUncachedAndDeregisteredOnRelease() {
        RegistrationCache.Registration a = cache.acquire(0, 10);
        RegistrationCache.Registration b = cache.acquire(100, 10);
        RegistrationCache.Registration c = cache.acquire(200, 10);
        assertThat(registrar.live).hasSize(3);
        cache.release(c);
        assertThat(registrar.live).hasSize(2);
        cache.release(a);
        cache.release(b);
        assertThat(registrar.live).hasSize(2); // cached ones stay
        cache.clear();
        assertThat(registrar.live).isEmpty();
    }

    @Test
    void aRefusedRegistrationLeavesNothingBehind() {
        cache.release(cache.acquire(0, 10));
        registrar.refuse = true;
        assertThatThrownBy(() -> cache.acquire(500, 10)).hasMessageContaining("refused");
        registrar.refuse = false;
        assertThat(registrar.live).extracting(x -> x[0]).containsExactly(0L); // the cached one, nothing new
        RegistrationCache.Registration r = cache.acquire(500, 10);
        cache.release(r);
        cache.clear();
        assertThat(registrar.live).isEmpty();
        assertThat(registrar.registrations).isEqualTo(registrar.deregistrations);
    }

    @Test
    void releasingMoreOftenThanHeldIsAnError() {
        RegistrationCache.Registration r = cache.acquire(0, 10);
        cache.release(r);
        assertThatThrownBy(() -> cache.release(r)).isInstanceOf(IllegalStateException.class);
    }
}
