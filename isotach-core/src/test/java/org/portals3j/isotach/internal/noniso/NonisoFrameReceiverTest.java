package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;

/** The transport side alone: what it accepts into the ring, hands over, publishes, and what it drops and why. */
class NonisoFrameReceiverTest {
    private static final int ME = 0;
    private static final int HOSTS = 3;
    private static final int RING = 4;
    private static final int MAX_PAYLOAD = 16;

    private final MemorySegment region = MemorySegment.ofArray(new byte[(HOSTS - 1) * RING * MAX_PAYLOAD]);
    private final NonisoPeerState peers = new NonisoPeerState(HOSTS);
    private final HandoffQueue handoff = new HandoffQueue(8);
    private final NonisoCounters counters = new NonisoCounters();
    private final NonisoFrameReceiver receiver =
            new NonisoFrameReceiver(ME, HOSTS, MAX_PAYLOAD, RING, region, peers, handoff, counters);
    private final HostileFrames frames = new HostileFrames(RING);

    private Deposit header(int source, MemorySegment h, int length, long payload) {
        return header(source, h, length, payload, new DepositWriter());
    }

    private Deposit header(int source, MemorySegment h, int length, long payload, DepositWriter writer) {
        receiver.onHeader(source, h, length, payload, writer.deposit());
        return writer.deposit();
    }

    @Test
    void aDataFrameInTurnIsDepositedInItsSendersSlotAndHandedOverOnceInPlace() {
        DepositWriter writer = new DepositWriter();
        Deposit deposit = header(2, frames.data(0, 8), NonisoFrame.DATA_LENGTH, 8, writer);
        assertThat(deposit.accepted()).isTrue();
        assertThat(deposit.offset()).as("host 2's ring follows host 1's").isEqualTo((long) RING * MAX_PAYLOAD);
        assertThat(handoff.peek()).as("not before the payload is in place").isNegative();
        writer.addDeposited(8);
        receiver.onDeposited(2, deposit);
        int cell = handoff.peek();
        assertThat(handoff.kind(cell)).isEqualTo(HandoffQueue.DATA);
        assertThat(handoff.source(cell)).isEqualTo(2);
        assertThat(counters.get(NonisoCounters.RECEIVED)).isEqualTo(1);
    }

    @Test
    void aSlotOutOfTurnOrBeyondWhatTheSenderMayHoldIsDropped() {
        header(1, frames.data(1, 0), NonisoFrame.DATA_LENGTH, 0);
        assertThat(counters.get(NonisoCounters.DROP_SLOT)).isEqualTo(1);
        for (int slot = 0; slot < RING - 1; slot++) {
            receiver.onDeposited(1, header(1, frames.data(slot, 0), NonisoFrame.DATA_LENGTH, 0));
        }
        header(1, frames.data(RING - 1, 0), NonisoFrame.DATA_LENGTH, 0);
        assertThat(counters.get(NonisoCounters.DROP_OVERRUN)).as("ring - 1 held, none freed").isEqualTo(1);
        peers.freedPublished.set(1, 1);
        header(1, frames.data(RING - 1, 0), NonisoFrame.DATA_LENGTH, 0);
        assertThat(counters.get(NonisoCounters.DROP_MALFORMED)).as("one freed: accepted").isEqualTo(2);
    }

    @Test
    void creditIsPublishedOnlyWhenPlausible() {
        peers.assignedPublished.set(1, 3);
        header(1, frames.credit(4), NonisoFrame.lengthOf(NonisoFrame.KIND_CREDIT), 0);
        assertThat(counters.get(NonisoCounters.DROP_CREDIT)).as("more than was assigned").isEqualTo(1);
        header(1, frames.credit(2), NonisoFrame.lengthOf(NonisoFrame.KIND_CREDIT), 0);
        assertThat(peers.peerFreed.get(1)).isEqualTo(2);
        header(1, frames.credit(1), NonisoFrame.lengthOf(NonisoFrame.KIND_CREDIT), 0);
        assertThat(counters.get(NonisoCounters.DROP_CREDIT)).as("fewer than reported before").isEqualTo(2);
    }

    @Test
    void aCreditRequestIsPublishedAsStateWithAHint() {
        assertThat(peers.takeCreditRequestHint()).isFalse();
        header(2, frames.creditRequest(), NonisoFrame.lengthOf(NonisoFrame.KIND_CREDIT_REQUEST), 0);
        header(2, frames.creditRequest(), NonisoFrame.lengthOf(NonisoFrame.KIND_CREDIT_REQUEST), 0);
        assertThat(peers.creditRequested.get(2)).isEqualTo(1);
        assertThat(peers.takeCreditRequestHint()).isTrue();
        assertThat(peers.takeCreditRequestHint()).isFalse();
    }

    @Test
    void aBarrierGenerationMustBeThePeersNextAndAtMostOneAheadOfOurs() {
        int length = NonisoFrame.lengthOf(NonisoFrame.KIND_BARRIER);
        header(1, frames.barrier(2), length, 0);
        assertThat(counters.get(NonisoCounters.DROP_BARRIER)).as("skips generation 1").isEqualTo(1);
        header(1, frames.barrier(1), length, 0);
        assertThat(peers.barrierSeen.get(1)).isEqualTo(1);
        header(1, frames.barrier(2), length, 0);
        assertThat(counters.get(NonisoCounters.DROP_BARRIER)).as("two ahead of our generation 0").isEqualTo(2);
        peers.barrierGenerationPublished.set(1);
        header(1, frames.barrier(2), length, 0);
        assertThat(peers.barrierSeen.get(1)).isEqualTo(2);
    }

    @Test
    void aFrameFromItselfOrOutsideTheJobIsDropped() {
        header(ME, frames.data(0, 0), NonisoFrame.DATA_LENGTH, 0);
        header(HOSTS, frames.data(0, 0), NonisoFrame.DATA_LENGTH, 0);
        assertThat(counters.get(NonisoCounters.DROP_SOURCE)).isEqualTo(2);
    }
}
