package org.portals3j.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Misuse gets a clear exception, never a crash: close order, closed objects, heap segments, wrong sizes. */
class BadInputTest {
    @Test
    void closingADomainWithOpenObjectsIsAnError() {
        FabricInfo info = Peer.assumeProvider("tcp;ofi_rxm");
        try (Peer a = new Peer(info, 1)) {
            assertThatThrownBy(a.domain::close).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot close this domain").hasMessageContaining("close them first");
            assertThatThrownBy(a.cq::close).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("completion queue");
            assertThatThrownBy(a.fabric::close).isInstanceOf(IllegalStateException.class);
            assertThat(a.domain.isClosed()).isFalse();
        }
    }

    @Test
    void closedObjectsRefuseUse() {
        FabricInfo info = Peer.assumeProvider("tcp;ofi_rxm");
        Peer a = new Peer(info, 1);
        byte[] name = a.ep.name();
        a.close();
        a.close();
        assertThat(a.ep.isClosed()).isTrue();
        assertThatThrownBy(a.ep::name).isInstanceOf(IllegalStateException.class)
                .hasMessage("this endpoint is closed");
        assertThatThrownBy(() -> a.av.insert(name)).hasMessage("this address vector is closed");
        try (Completions batch = new Completions(4)) {
            assertThatThrownBy(() -> a.cq.read(batch)).hasMessage("this completion queue is closed");
        }
        assertThatThrownBy(a.fabric::openDomain).hasMessage("this fabric is closed");
    }

    @Test
    void heapSegmentsAndForeignBuffersAreRejected() {
        FabricInfo info = Peer.assumeProvider("tcp;ofi_rxm");
        try (Peer a = new Peer(info, 1); Arena other = Arena.ofConfined()) {
            MemorySegment heap = MemorySegment.ofArray(new byte[64]);
            assertThatThrownBy(() -> a.ep.postTaggedSend(heap, a.region, 0, 1, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heap segment")
                    .hasMessageContaining("native memory");
            assertThatThrownBy(() -> a.domain.register(heap, Caps.SEND, 9))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heap segment");
            MemorySegment outside = other.allocate(64);
            assertThatThrownBy(() -> a.ep.postTaggedReceive(outside, a.region, AddressVector.ANY, 0, 0, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not inside this memory region");
            assertThatThrownBy(() -> a.domain.register(other.allocate(0), Caps.SEND, 9))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        }
    }

    @Test
    void wrongSizesAndNamesAreRejected() {
        FabricInfo info = Peer.assumeProvider("tcp;ofi_rxm");
        try (Peer a = new Peer(info, 1)) {
            assertThatThrownBy(() -> new Completions(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.domain.openCompletionQueue(0, WaitObject.NONE))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.domain.openAddressVector(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.av.insert(new byte[0])).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.region.remoteAddress(-1)).isInstanceOf(IndexOutOfBoundsException.class);
            try (Completions batch = new Completions(2)) {
                assertThat(a.cq.read(batch)).isZero();
                assertThatThrownBy(() -> batch.context(0)).isInstanceOf(IndexOutOfBoundsException.class);
            }
        }
    }

    @Test
    void namesThatCannotBeTheProvidersAreRejectedBeforeLibfabricReadsThem() {
        FabricInfo rxm = Peer.assumeProvider("tcp;ofi_rxm");
        try (Peer a = new Peer(rxm, 1)) {
            byte[] own = a.ep.name();
            assertThat(own).hasSize(16);
            assertThatThrownBy(() -> a.av.insert(new byte[] {2, 0, 1})).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("16 bytes of family AF_INET");
            byte[] wrongFamily = own.clone();
            wrongFamily[0] = 7;
            assertThatThrownBy(() -> a.av.insert(wrongFamily)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Endpoint.name()");
            assertThat(a.av.insert(own)).isNotNegative();
        }
        FabricInfo shm = Peer.assumeProvider("shm");
        try (Peer b = new Peer(shm, 1)) {
            byte[] own = b.ep.name();
            byte[] unterminated = "fi_shm://12345".getBytes(StandardCharsets.US_ASCII);
            assertThatThrownBy(() -> b.av.insert(unterminated)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("NUL-terminated");
            assertThat(b.av.insert(own)).isNotNegative();
        }
    }

    @Test
    void shmHasNoFileDescriptorWaitObject() {
        FabricInfo info = Peer.assumeProvider("shm");
        try (Fabric f = Fabric.open(info); Domain d = f.openDomain()) {
            assertThatThrownBy(() -> d.openCompletionQueue(16, WaitObject.FD))
                    .isInstanceOfSatisfying(FabricException.class, e -> assertThat(e.errnoName())
                            .isEqualTo("FI_ENOSYS"));
        }
    }

    @Test
    void rxdOpensAnFdQueueButHasNoFileDescriptor() {
        FabricInfo info = Peer.assumeProvider("udp;ofi_rxd");
        try (Fabric f = Fabric.open(info); Domain d = f.openDomain();
                CompletionQueue cq = d.openCompletionQueue(16, WaitObject.FD)) {
            assertThatThrownBy(cq::waitFd).isInstanceOfSatisfying(FabricException.class, e -> assertThat(
                    e.errnoName()).isEqualTo("FI_ENOSYS")).hasMessageContaining("fi_control(FI_GETWAIT)");
        }
    }

    @Test
    void rxmGivesAFileDescriptorToWaitOn() {
        FabricInfo info = Peer.assumeProvider("tcp;ofi_rxm");
        try (Fabric f = Fabric.open(info); Domain d = f.openDomain();
                CompletionQueue cq = d.openCompletionQueue(16, WaitObject.FD)) {
            assertThat(cq.waitFd()).isGreaterThanOrEqualTo(0);
        }
    }
}
