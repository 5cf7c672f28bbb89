package org.portals3j.isotach.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachFatalError;

/** The host's bounded queues alone: delivery queue, hit_q, hit_buf and the self-references. */
class HostQueuesTest {
    @Test
    void theDeliveryQueueIsFifoWrapsAndIsFatalWhenFull() {
        DeliveryQueue q = new DeliveryQueue(2);
        for (int round = 0; round < 3; round++) {
            q.append(DeliveryQueue.NET_MESSAGE, 1, 5, 64, 0, 0, 10 + round);
            q.append(DeliveryQueue.NOTICE, -1, 0x04, 0, 0, 0, 11 + round);
            assertThatThrownBy(() -> q.append(DeliveryQueue.NOTICE, -1, 1, 0, 0, 0, 0))
                    .isInstanceOf(IsotachFatalError.class).hasMessageContaining("iso_delivery_q");
            int i = q.oldest();
            assertThat(q.type(i)).isEqualTo(DeliveryQueue.NET_MESSAGE);
            assertThat(q.sender(i)).isEqualTo(1);
            assertThat(q.slot(i)).isEqualTo(5);
            assertThat(q.length(i)).isEqualTo(64);
            assertThat(q.pulse(i)).isEqualTo(10 + round);
            q.removeOldest();
            assertThat(q.noticeBits(q.oldest())).isEqualTo(0x04);
            q.removeOldest();
            assertThat(q.isEmpty()).isTrue();
        }
    }

    @Test
    void selfMessagesJoinTheNewestRunOnlyWhenItIsOneOfTheSamePulse() {
        DeliveryQueue q = new DeliveryQueue(4);
        assertThat(q.extendNewestSelfMessages(2, 3)).as("empty").isFalse();
        q.append(DeliveryQueue.SELF_MESSAGES, 0, 2, 0, 0, 0, 3);
        assertThat(q.extendNewestSelfMessages(1, 4)).as("a run of an earlier pulse").isFalse();
        assertThat(q.extendNewestSelfMessages(3, 3)).isTrue();
        assertThat(q.count(q.oldest())).isEqualTo(5);
        q.append(DeliveryQueue.NOTICE, -1, 1, 0, 0, 0, 3);
        assertThat(q.extendNewestSelfMessages(1, 3)).as("behind a notice").isFalse();
        assertThat(q.countDown(q.oldest())).isEqualTo(4);
        assertThat(q.size()).isEqualTo(2);
    }

    @Test
    void outstandingIsochronsAreMatchedOldestFirstAndOverflowIsFatal() {
        OutstandingIsochrons hitQ = new OutstandingIsochrons(2);
        hitQ.add(7, 0);
        hitQ.add(8, 1);
        hitQ.addSelfToNewest(2);
        assertThatThrownBy(() -> hitQ.add(9, 0)).isInstanceOf(IsotachFatalError.class).hasMessageContaining("hit_q");
        assertThat(hitQ.oldestId()).isEqualTo(7);
        assertThat(hitQ.oldestSelfCount()).isZero();
        hitQ.removeOldest();
        assertThat(hitQ.oldestId()).isEqualTo(8);
        assertThat(hitQ.oldestSelfCount()).isEqualTo(3);
        hitQ.removeOldest();
        assertThat(hitQ.isEmpty()).isTrue();
        assertThat(hitQ.size()).isZero();
    }

    @Test
    void theSelfMessageBufferCopiesInIssueOrderAndFillsUp() {
        SelfMessageBuffer hitBuf = new SelfMessageBuffer(MemorySegment.ofArray(new byte[2 * 8]), 2, 8);
        byte[] data = {1, 2, 3};
        hitBuf.add(MemorySegment.ofArray(data), 3);
        data[0] = 9; // copied: the application may reuse its buffer
        hitBuf.add(MemorySegment.ofArray(data), 1);
        assertThat(hitBuf.isFull()).isTrue();
        assertThat(hitBuf.oldestLength()).isEqualTo(3);
        assertThat(hitBuf.segment().get(ValueLayout.JAVA_BYTE, hitBuf.oldestOffset())).isEqualTo((byte) 1);
        hitBuf.releaseOldest();
        assertThat(hitBuf.oldestOffset()).isEqualTo(8);
        assertThat(hitBuf.segment().get(ValueLayout.JAVA_BYTE, hitBuf.oldestOffset())).isEqualTo((byte) 9);
        assertThat(hitBuf.isFull()).isFalse();
    }

    @Test
    void selfReferencesKeepIssueOrderWithinTheirBound() {
        SelfReferences refs = new SelfReferences(2);
        refs.add(0x11, 100, 1);
        refs.add(0x14, 101, 2);
        assertThat(refs.hasRoom()).isFalse();
        assertThat(refs.oldestSubtype()).isEqualTo(0x11);
        assertThat(refs.oldestAddress()).isEqualTo(100);
        refs.removeOldest();
        assertThat(refs.hasRoom()).isTrue();
        assertThat(refs.oldestOperand()).isEqualTo(2);
    }
}
