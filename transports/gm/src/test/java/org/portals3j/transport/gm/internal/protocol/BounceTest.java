package org.portals3j.transport.gm.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class BounceTest {
    private final FakeRegistrar registrar = new FakeRegistrar();

    @Test
    void aHeapPayloadIsCopiedIntoRegisteredNativeMemory() {
        byte[] heap = new byte[100];
        for (int i = 0; i < heap.length; i++) {
            heap[i] = (byte) i;
        }
        try (Bounce b = Bounce.stageOut(MemorySegment.ofArray(heap), 10, 50, registrar)) {
            assertThat(b.memory().isNative()).isTrue();
            assertThat(b.memory().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 10);
            assertThat(b.memory().get(ValueLayout.JAVA_BYTE, 49)).isEqualTo((byte) 59);
            assertThat(registrar.live).hasSize(1);
            assertThat(registrar.live.getFirst()[0]).isEqualTo(b.address());
            assertThat(b.key()).isEqualTo(registrar.live.getFirst()[2]);
        }
        assertThat(registrar.live).isEmpty();
    }

    @Test
    void aPayloadReadIntoABounceReachesTheHeapDestination() {
        byte[] heap = new byte[64];
        try (Bounce b = Bounce.allocate(16, registrar)) {
            b.memory().fill((byte) 7);
            b.copyTo(MemorySegment.ofArray(heap), 8, 16);
        }
        assertThat(heap[7]).isZero();
        assertThat(heap[8]).isEqualTo((byte) 7);
        assertThat(heap[23]).isEqualTo((byte) 7);
        assertThat(heap[24]).isZero();
    }

    @Test
    void aRefusedRegistrationFreesTheMemoryAndAClosedBounceIsGone() {
        registrar.refuse = true;
        assertThatThrownBy(() -> Bounce.allocate(16, registrar)).hasMessageContaining("refused");
        registrar.refuse = false;
        Bounce b = Bounce.allocate(16, registrar);
        b.close();
        b.close(); // once only
        assertThat(registrar.deregistrations).isEqualTo(1);
        assertThatThrownBy(() -> b.memory().get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anAbandonedBounceIsFreedWithoutDeregistering() {
        Bounce b = Bounce.allocate(16, registrar);
        b.abandon();
        assertThat(registrar.deregistrations).isZero();
        assertThatThrownBy(() -> b.memory().get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }
}
