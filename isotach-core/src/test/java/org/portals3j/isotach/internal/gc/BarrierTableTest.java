package org.portals3j.isotach.internal.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.isotach.internal.gc.BarrierTable.FAILURE;
import static org.portals3j.isotach.internal.gc.BarrierTable.SUCCESS;
import static org.portals3j.isotach.internal.gc.BarrierState.HOLDING;
import static org.portals3j.isotach.internal.gc.BarrierState.NOT_HOLDING;
import static org.portals3j.isotach.internal.gc.BarrierState.READY;
import static org.portals3j.isotach.internal.gc.BarrierState.SEND;
import static org.portals3j.isotach.internal.gc.BarrierState.TRANSITION;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.IsotachFatalError;

/**
 * Isotach barriers at one host: every row of our state table of the rules (Isotach report §6.5.5, pp. 50-54; App. J,
 * iso_barrier.c, pp. 224-229) and the single-host parts of I-063..I-074.
 */
class BarrierTableTest {

    private static final int DIAMETER = 3;
    private static final int WEAK_COUNT = DIAMETER + 1;
    private static final int APP = BarrierTable.APPLICATION_BARRIER;
    private static final int SHUT = BarrierTable.SHUTDOWN_BARRIER;

    /** Records every marker; refuses them (a full iso_send_buf) while {@link #full} is set. */
    static final class RecordingSink implements BarrierTable.MarkerSink {
        final List<int[]> markers = new ArrayList<>();
        boolean full;
        int refused;

        @Override
        public boolean enqueueBarrier(int channel, int barrierCount) {
            if (full) {
                refused++;
                return false;
            }
            markers.add(new int[] {channel, barrierCount});
            return true;
        }

        /** The markers sent since the last call, as (channel, count) pairs; clears the record. */
        List<int[]> take() {
            List<int[]> sent = new ArrayList<>(markers);
            markers.clear();
            return sent;
        }
    }

    private final RecordingSink sink = new RecordingSink();
    private final BarrierTable table = new BarrierTable(DIAMETER, sink);

    private static int[] marker(int channel, int count) {
        return new int[] {channel, count};
    }

    private void expectState(int channel, Owner owner, InternalBarrierMode mode, BarrierState state) {
        assertThat(table.owner(channel)).as("owner of %d", channel).isEqualTo(owner);
        assertThat(table.mode(channel)).as("mode of %d", channel).isEqualTo(mode);
        assertThat(table.state(channel)).as("state of %d", channel).isEqualTo(state);
    }

    /** Started, the initial unclaimed participation on channel 1 sent and taken off the record. */
    private void startAndForget() {
        table.start();
        assertThat(sink.take()).containsExactly(marker(APP, BarrierTable.MAX_BARRIER_COUNT));
    }

    /** Channel 1 registered WEAK and HOLDING after start: the initial unclaimed execution has completed. */
    private void holdingApplicationChannel() {
        startAndForget();
        table.notify(BarrierTable.wireBit(APP)); // unclaimed execution completes: re-participates
        sink.take();
        assertThat(table.register(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS); // TRANSITION
        table.notify(BarrierTable.wireBit(APP)); // old unclaimed execution completes: HOLDING, masked
        expectState(APP, Owner.APPLICATION, InternalBarrierMode.WEAK, HOLDING);
        assertThat(sink.take()).isEmpty();
    }

    @Nested
    class InitialStateAndCounts {
        /** Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c, pp. 224-229. */
        @Test
        void channelZeroIsTheMLayersHoldingStrongAndChannelOneUnclaimedSendMax() {
            expectState(SHUT, Owner.MLAYER, InternalBarrierMode.STRONG, HOLDING);
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, SEND);
            assertThat(table.started()).isFalse();
            assertThat(sink.markers).isEmpty();
        }

        /** I-073, Isotach report §6.5.4, pp. 50-54: WEAK = STRONG = diameter + 1, TICK = 2, MAX = 37. */
        @Test
        void barrierCountsFollowTheNetworkDiameter_I073() {
            assertThat(table.barrierCount(InternalBarrierMode.WEAK)).isEqualTo(4);
            assertThat(table.barrierCount(InternalBarrierMode.STRONG)).isEqualTo(4);
            assertThat(table.barrierCount(InternalBarrierMode.TICK)).isEqualTo(2);
            assertThat(table.barrierCount(InternalBarrierMode.MAX)).isEqualTo(37);
            BarrierTable wide = new BarrierTable(7, sink);
            assertThat(wide.barrierCount(InternalBarrierMode.WEAK)).isEqualTo(8);
            assertThat(wide.barrierCount(InternalBarrierMode.STRONG)).isEqualTo(8);
            assertThatThrownBy(() -> new BarrierTable(-1, sink)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new BarrierTable(255, sink)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0..254");
        }

        /** I-130, Isotach report App. J, iso_barrier.c, pp. 224-229: barrier channel c is bit c of the bits byte. */
        @Test
        void wireBitOfChannelCIsBitC_I130() {
            assertThat(BarrierTable.wireBit(0)).isEqualTo(0x01);
            assertThat(BarrierTable.wireBit(1)).isEqualTo(0x02);
            assertThatThrownBy(() -> BarrierTable.wireBit(2)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> BarrierTable.wireBit(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> table.state(2)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> table.mLayerCompleted(2)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class StartAndPoll {
        /**
         * A7, Isotach report §3.5.1, pp. 18-20: start sends the unclaimed channel's initial participation with the MAX
         * count.
         */
        @Test
        void startSendsTheInitialUnclaimedParticipation_A7_I069() {
            table.start();
            assertThat(sink.take()).containsExactly(marker(APP, 37));
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, NOT_HOLDING);
            expectState(SHUT, Owner.MLAYER, InternalBarrierMode.STRONG, HOLDING);
            assertThat(table.started()).isTrue();
            assertThatThrownBy(table::start).isInstanceOf(IllegalStateException.class);
        }

        /** Nothing leaves before the reset: poll is idle, a SEND channel waits for start. */
        @Test
        void nothingIsSentBeforeStart() {
            table.poll();
            assertThat(sink.markers).isEmpty();
            assertThat(table.register(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
            assertThat(table.barrier(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
            assertThat(table.state(APP)).isEqualTo(SEND);
            table.poll();
            assertThat(sink.markers).isEmpty();
            table.start();
            assertThat(sink.take()).containsExactly(marker(APP, WEAK_COUNT));
            assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
        }

        /**
         * Isotach report §5.2, pp. 35-36: completion bits in an EOP marker before start (the
         * report's 0x83 reset would bring both) are ignored.
         */
        @Test
        void completionBitsBeforeStartAreIgnored() {
            assertThat(table.notify(0x83)).isZero();
            expectState(SHUT, Owner.MLAYER, InternalBarrierMode.STRONG, HOLDING);
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, SEND);
            assertThat(table.mLayerCompleted(SHUT)).isFalse();
            assertThat(sink.markers).isEmpty();
        }

        /**
         * A7 fix, Isotach report §6.5.5, pp. 50-54: a refused enqueue stays SEND and poll retries it until it is
         * accepted.
         */
        @Test
        void pollRetriesARefusedEnqueueUntilTheSinkAcceptsIt_A7() {
            sink.full = true;
            table.start();
            assertThat(table.state(APP)).isEqualTo(SEND);
            assertThat(sink.refused).isEqualTo(1);
            table.poll();
            table.poll();
            assertThat(sink.refused).isEqualTo(3);
            assertThat(table.state(APP)).isEqualTo(SEND);
            assertThat(table.describe(APP)).contains("waiting for room");
            sink.full = false;
            table.poll();
            assertThat(sink.take()).containsExactly(marker(APP, 37));
            assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
            table.poll();
            assertThat(sink.markers).as("exactly one marker per participation").isEmpty();
        }

        /** A7: an application participation refused by a full buffer still succeeds and leaves on poll. */
        @Test
        void anApplicationBarrierRefusedByAFullBufferSucceedsAndLeavesOnPoll_A7() {
            holdingApplicationChannel();
            sink.full = true;
            assertThat(table.barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(table.state(APP)).isEqualTo(SEND);
            sink.full = false;
            table.poll();
            assertThat(sink.take()).containsExactly(marker(APP, WEAK_COUNT));
            assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
        }
    }

    /** One test per row of the state table, in its order. */
    @Nested
    class StateTableRows {
        /** Row "SEND (any) | enqueue succeeds | NOT_HOLDING" for all three owners. */
        @Test
        void sendGoesToNotHoldingWhenTheEnqueueSucceeds() {
            table.start(); // UNCLAIMED
            assertThat(sink.take()).containsExactly(marker(APP, 37));
            assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
            assertThat(table.mLayerBarrier(SHUT)).isEqualTo(SUCCESS); // MLAYER
            assertThat(sink.take()).containsExactly(marker(SHUT, WEAK_COUNT));
            assertThat(table.state(SHUT)).isEqualTo(NOT_HOLDING);
        }

        /** Row "SEND (UNCLAIMED) | register | HOLDING": the credit is kept, the unclaimed marker never leaves. */
        @Test
        void registerInSendKeepsTheCreditAsHolding_I063() {
            sink.full = true;
            table.start();
            assertThat(table.state(APP)).isEqualTo(SEND);
            assertThat(table.register(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
            expectState(APP, Owner.APPLICATION, InternalBarrierMode.STRONG, HOLDING);
            sink.full = false;
            table.poll();
            assertThat(sink.markers).as("the unclaimed participation is not sent any more").isEmpty();
            assertThat(table.barrier(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
            assertThat(sink.take()).containsExactly(marker(APP, WEAK_COUNT));
        }

        /** Row "NOT_HOLDING (UNCLAIMED) | register | TRANSITION". */
        @Test
        void registerWhileTheUnclaimedParticipationIsOutGoesToTransition() {
            startAndForget();
            assertThat(table.register(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            expectState(APP, Owner.APPLICATION, InternalBarrierMode.WEAK, TRANSITION);
            assertThat(sink.markers).isEmpty();
        }

        /** Row "HOLDING (APP) | iso_barrier | SEND -> NOT_HOLDING": the marker carries bit c and the mode's count. */
        @Test
        void barrierWhileHoldingEnqueuesTheMarker_I073() {
            holdingApplicationChannel();
            assertThat(table.barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(sink.take()).containsExactly(marker(APP, WEAK_COUNT));
            assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
        }

        /** Row "TRANSITION (APP) | iso_barrier | READY": remembered, nothing sent yet (I-071). */
        @Test
        void barrierInTransitionIsRememberedAsReady_I071() {
            startAndForget();
            table.register(APP, BarrierMode.WEAK);
            assertThat(table.barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(table.state(APP)).isEqualTo(READY);
            assertThat(sink.markers).isEmpty();
        }

        /** Row "NOT_HOLDING/SEND/READY (APP) | iso_barrier | failure" (I-065, I-070). */
        @Test
        void barrierFailsWhileThePreviousExecutionIsNotLocallyComplete_I065() {
            holdingApplicationChannel();
            assertThat(table.barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(table.barrier(APP, BarrierMode.WEAK)).as("NOT_HOLDING").isEqualTo(FAILURE);
            sink.take();

            table.notify(BarrierTable.wireBit(APP));
            sink.full = true;
            assertThat(table.barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(table.state(APP)).isEqualTo(SEND);
            assertThat(table.barrier(APP, BarrierMode.WEAK)).as("SEND").isEqualTo(FAILURE);

            BarrierTable other = new BarrierTable(DIAMETER, new RecordingSink());
            other.start();
            other.register(APP, BarrierMode.WEAK);
            assertThat(other.barrier(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(other.state(APP)).isEqualTo(READY);
            assertThat(other.barrier(APP, BarrierMode.WEAK)).as("READY").isEqualTo(FAILURE);
        }

        /** Row "NOT_HOLDING (APP) | completion | HOLDING, app notified" - A10: and nothing is enqueued. */
        @Test
        void applicationCompletionNotifiesAndHoldsWithoutEnqueueing_A10_I070() {
            holdingApplicationChannel();
            table.barrier(APP, BarrierMode.WEAK);
            sink.take();
            assertThat(table.notify(BarrierTable.wireBit(APP))).isEqualTo(0x02);
            assertThat(table.state(APP)).isEqualTo(HOLDING);
            table.poll();
            assertThat(sink.markers).as("A10: no participation the application did not ask for").isEmpty();
            assertThat(table.barrier(APP, BarrierMode.WEAK)).as("I-070: again after the notice").isEqualTo(SUCCESS);
            assertThat(sink.take()).containsExactly(marker(APP, WEAK_COUNT));
        }

        /** Row "NOT_HOLDING (UNCLAIMED) | completion | SEND -> NOT_HOLDING, masked" (I-069). */
        @Test
        void unclaimedCompletionReParticipatesAndIsMasked_I069() {
            startAndForget();
            for (int i = 0; i < 5; i++) {
                assertThat(table.notify(BarrierTable.wireBit(APP))).isZero();
                assertThat(sink.take()).containsExactly(marker(APP, 37));
                assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
            }
        }

        /**
         * Row "NOT_HOLDING (MLAYER) | completion": back to HOLDING (the shutdown barrier's credit), masked,
         * reported once through mLayerCompleted; no re-participation (class comment, "mLayer barriers").
         */
        @Test
        void mLayerCompletionHoldsIsMaskedAndReportedOnceToTheMLayer() {
            startAndForget();
            assertThat(table.mLayerCompleted(SHUT)).isFalse();
            table.mLayerBarrier(SHUT);
            sink.take();
            assertThat(table.mLayerCompleted(SHUT)).isFalse();
            assertThat(table.notify(BarrierTable.wireBit(SHUT))).as("masked").isZero();
            expectState(SHUT, Owner.MLAYER, InternalBarrierMode.STRONG, HOLDING);
            assertThat(sink.markers).as("no second shutdown execution").isEmpty();
            assertThat(table.mLayerCompleted(SHUT)).isTrue();
            assertThat(table.mLayerCompleted(SHUT)).as("once").isFalse();
            assertThat(table.mLayerBarrier(SHUT)).as("another execution may start").isEqualTo(SUCCESS);
        }

        /** Row "TRANSITION (APP) | completion of old unclaimed barrier | HOLDING, masked" (I-071). */
        @Test
        void oldUnclaimedCompletionInTransitionHoldsAndIsMasked_I071() {
            startAndForget();
            table.register(APP, BarrierMode.WEAK);
            assertThat(table.notify(BarrierTable.wireBit(APP))).isZero();
            assertThat(table.state(APP)).isEqualTo(HOLDING);
            assertThat(sink.markers).isEmpty();
        }

        /** Row "READY (APP) | completion of old unclaimed barrier | SEND -> NOT_HOLDING, masked" (I-071). */
        @Test
        void oldUnclaimedCompletionInReadySendsTheApplicationsMarkerMasked_I071() {
            startAndForget();
            table.register(APP, BarrierMode.STRONG);
            table.barrier(APP, BarrierMode.STRONG);
            assertThat(table.notify(BarrierTable.wireBit(APP))).as("the old execution is not reported").isZero();
            assertThat(sink.take()).containsExactly(marker(APP, WEAK_COUNT));
            assertThat(table.state(APP)).isEqualTo(NOT_HOLDING);
            assertThat(table.notify(BarrierTable.wireBit(APP))).as("the application's own execution").isEqualTo(2);
            assertThat(table.state(APP)).isEqualTo(HOLDING);
        }

        /** Row "TRANSITION/READY (APP) | iso_clear_barrier | NOT_HOLDING, UNCLAIMED, MAX". */
        @Test
        void clearInTransitionOrReadyGoesBackToUnclaimedNotHolding() {
            startAndForget();
            table.register(APP, BarrierMode.WEAK);
            assertThat(table.clear(APP)).isEqualTo(SUCCESS);
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, NOT_HOLDING);
            assertThat(sink.markers).isEmpty();

            table.register(APP, BarrierMode.WEAK);
            table.barrier(APP, BarrierMode.WEAK);
            assertThat(table.state(APP)).isEqualTo(READY);
            assertThat(table.clear(APP)).isEqualTo(SUCCESS);
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, NOT_HOLDING);
            assertThat(sink.markers).isEmpty();
            assertThat(table.notify(BarrierTable.wireBit(APP))).as("masked, re-participates").isZero();
            assertThat(sink.take()).containsExactly(marker(APP, 37));
        }

        /** Row "HOLDING (APP) | iso_clear_barrier | SEND -> NOT_HOLDING, enqueue" (I-072). */
        @Test
        void clearWhileHoldingParticipatesAsUnclaimedAndStopsNotices_I072() {
            holdingApplicationChannel();
            assertThat(table.clear(APP)).isEqualTo(SUCCESS);
            assertThat(sink.take()).containsExactly(marker(APP, 37));
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, NOT_HOLDING);
            assertThat(table.notify(BarrierTable.wireBit(APP))).isZero();
            assertThat(sink.take()).containsExactly(marker(APP, 37));
        }

        /**
         * Isotach report §6.5.5, pp. 50-54: clear in NOT_HOLDING or SEND leaves the state; a SEND marker then leaves as
         * unclaimed (MAX).
         */
        @Test
        void clearInNotHoldingOrSendKeepsTheStateAndTheParticipationContinuesUnclaimed() {
            holdingApplicationChannel();
            table.barrier(APP, BarrierMode.WEAK);
            sink.take();
            assertThat(table.clear(APP)).isEqualTo(SUCCESS);
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, NOT_HOLDING);
            assertThat(table.notify(BarrierTable.wireBit(APP))).as("the app's last execution, now masked").isZero();
            sink.take();

            BarrierTable other = new BarrierTable(DIAMETER, sink);
            other.register(APP, BarrierMode.WEAK);
            other.barrier(APP, BarrierMode.WEAK); // before start: SEND
            assertThat(other.clear(APP)).isEqualTo(SUCCESS);
            assertThat(other.state(APP)).isEqualTo(SEND);
            assertThat(other.owner(APP)).isEqualTo(Owner.UNCLAIMED);
            other.start();
            assertThat(sink.take()).containsExactly(marker(APP, 37));
        }

        /** Row "HOLDING (MLAYER) | mLayer barrier | SEND -> NOT_HOLDING": STRONG count; then fails until done. */
        @Test
        void mLayerBarrierSendsTheShutdownMarker() {
            startAndForget();
            assertThat(table.mLayerBarrier(SHUT)).isEqualTo(SUCCESS);
            assertThat(sink.take()).containsExactly(marker(SHUT, WEAK_COUNT));
            assertThat(table.state(SHUT)).isEqualTo(NOT_HOLDING);
            assertThat(table.mLayerBarrier(SHUT)).as("previous execution not complete").isEqualTo(FAILURE);
            assertThat(table.mLayerBarrier(APP)).as("not the mLayer's").isEqualTo(FAILURE);
            assertThat(table.mLayerBarrier(-1)).isEqualTo(FAILURE);
            assertThat(table.mLayerBarrier(2)).isEqualTo(FAILURE);
            assertThat(sink.markers).isEmpty();
        }

        /**
         * Row "SEND/HOLDING | completion | assertion failure" (Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c,
         * pp. 224-229): fatal, never ignored.
         */
        @Test
        void completionOfAChannelThisHostHasNotJoinedIsFatal() {
            startAndForget();
            assertThatThrownBy(() -> table.notify(BarrierTable.wireBit(SHUT))).isInstanceOf(IsotachFatalError.class)
                    .hasMessageContaining("barrier channel 0").hasMessageContaining("HOLDING");

            RecordingSink fullSink = new RecordingSink();
            fullSink.full = true;
            BarrierTable other = new BarrierTable(DIAMETER, fullSink);
            other.start();
            assertThat(other.state(APP)).isEqualTo(SEND);
            assertThatThrownBy(() -> other.notify(BarrierTable.wireBit(APP))).isInstanceOf(IsotachFatalError.class)
                    .hasMessageContaining("SEND");
        }
    }

    @Nested
    class Checks {
        /** I-063: register once; not again, not channel 0, not out of range, not without a mode. */
        @Test
        void registerSucceedsOnceOnChannelOneOnly_I063() {
            assertThat(table.register(APP, BarrierMode.WEAK)).isEqualTo(SUCCESS);
            assertThat(table.register(APP, BarrierMode.WEAK)).isEqualTo(FAILURE);
            assertThat(table.register(APP, BarrierMode.STRONG)).isEqualTo(FAILURE);
            assertThat(table.mode(APP)).isEqualTo(InternalBarrierMode.WEAK);
            assertThat(table.register(SHUT, BarrierMode.STRONG)).as("I-074").isEqualTo(FAILURE);
            assertThat(table.owner(SHUT)).isEqualTo(Owner.MLAYER);
            assertThat(table.register(2, BarrierMode.WEAK)).isEqualTo(FAILURE);
            assertThat(table.register(-1, BarrierMode.WEAK)).isEqualTo(FAILURE);
            table.clear(APP);
            assertThat(table.register(APP, null)).as("a mode other than WEAK/STRONG").isEqualTo(FAILURE);
            assertThat(table.owner(APP)).isEqualTo(Owner.UNCLAIMED);
            assertThat(table.register(APP, BarrierMode.STRONG)).as("after clear").isEqualTo(SUCCESS);
        }

        /** I-064, I-074: barrier needs the application's channel and its registered mode. */
        @Test
        void barrierFailsUnregisteredWrongModeAndOnTheMLayerChannel_I064_I074() {
            startAndForget();
            assertThat(table.barrier(APP, BarrierMode.WEAK)).as("unregistered").isEqualTo(FAILURE);
            assertThat(table.barrier(SHUT, BarrierMode.STRONG)).as("I-074").isEqualTo(FAILURE);
            assertThat(table.state(SHUT)).isEqualTo(HOLDING);
            assertThat(table.barrier(2, BarrierMode.WEAK)).isEqualTo(FAILURE);
            assertThat(table.barrier(-1, BarrierMode.WEAK)).isEqualTo(FAILURE);
            table.notify(BarrierTable.wireBit(APP));
            sink.take();
            table.register(APP, BarrierMode.STRONG);
            table.notify(BarrierTable.wireBit(APP));
            assertThat(table.state(APP)).isEqualTo(HOLDING);
            assertThat(table.barrier(APP, BarrierMode.WEAK)).as("mode differs").isEqualTo(FAILURE);
            assertThat(table.barrier(APP, null)).isEqualTo(FAILURE);
            assertThat(table.state(APP)).isEqualTo(HOLDING);
            assertThat(sink.markers).isEmpty();
            assertThat(table.barrier(APP, BarrierMode.STRONG)).isEqualTo(SUCCESS);
        }

        /**
         * A9, Isotach report §6.5.5, pp. 50-54; App. A.8.1, pp. 100-104: clearing what the application does not own is
         * a successful no-op.
         */
        @Test
        void clearOfAChannelTheApplicationDoesNotOwnIsASuccessfulNop_A9() {
            startAndForget();
            assertThat(table.clear(APP)).isEqualTo(SUCCESS);
            expectState(APP, Owner.UNCLAIMED, InternalBarrierMode.MAX, NOT_HOLDING);
            assertThat(table.clear(SHUT)).isEqualTo(SUCCESS);
            expectState(SHUT, Owner.MLAYER, InternalBarrierMode.STRONG, HOLDING);
            assertThat(sink.markers).isEmpty();
            assertThat(table.clear(2)).isEqualTo(FAILURE);
            assertThat(table.clear(-1)).isEqualTo(FAILURE);
        }

        /** I-130: notify looks at bits 0-1 only; both channels of one EOP are handled together. */
        @Test
        void notifyHandlesBothChannelsOfOneEopAndIgnoresSignalBits() {
            holdingApplicationChannel();
            assertThat(table.notify(0xFC)).as("signal bits only").isZero();
            table.barrier(APP, BarrierMode.WEAK);
            table.mLayerBarrier(SHUT);
            sink.take();
            assertThat(table.notify(0xFF)).isEqualTo(0x02);
            assertThat(table.mLayerCompleted(SHUT)).isTrue();
            assertThat(table.state(APP)).isEqualTo(HOLDING);
            assertThat(table.state(SHUT)).isEqualTo(HOLDING);
        }

        @Test
        void describeNamesOwnerModeCountAndState() {
            assertThat(table.describe(SHUT)).contains("barrier channel 0", "MLAYER", "STRONG", "count 4", "HOLDING",
                    "not started");
            assertThat(table.describe(APP)).contains("UNCLAIMED", "MAX", "count 37", "SEND");
            assertThat(table.describe(3)).contains("out of range", "shutdown");
        }
    }
}
