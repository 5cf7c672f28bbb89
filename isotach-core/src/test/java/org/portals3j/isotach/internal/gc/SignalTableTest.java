package org.portals3j.isotach.internal.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.isotach.internal.gc.SignalTable.FAILURE;
import static org.portals3j.isotach.internal.gc.SignalTable.SUCCESS;

import org.junit.jupiter.api.Test;

/**
 * Isotach signals at one host: Isotach report §6.4, pp. 47-50; App. J, iso_signal.c,
 * pp. 231-235.
 */
class SignalTableTest {

    private final SignalTable table = new SignalTable();

    /**
     * Isotach report §6.4.4, pp. 47-50; App. J, api/iso_signal/locals.h, pp. 230-231: [MLAYER, UNCLAIMED x 4, MLAYER];
     * A11: the application's channels are 1..4.
     */
    @Test
    void initialOwnersGiveChannelsZeroAndFiveToTheMLayer() {
        assertThat(table.owner(0)).isEqualTo(Owner.MLAYER);
        for (int c = 1; c <= 4; c++) {
            assertThat(table.owner(c)).isEqualTo(Owner.UNCLAIMED);
        }
        assertThat(table.owner(SignalTable.RESET_SIGNAL)).isEqualTo(Owner.MLAYER);
        assertThat(SignalTable.FIRST_APPLICATION_SIGNAL).isEqualTo(1);
        assertThat(SignalTable.LAST_APPLICATION_SIGNAL).isEqualTo(4);
        assertThat(table.pending()).isZero();
        assertThat(table.resetCount()).isZero();
        assertThatThrownBy(() -> table.owner(6)).isInstanceOf(IllegalArgumentException.class);
    }

    /** I-052: register succeeds for unclaimed 1..4 only. */
    @Test
    void registerSucceedsForUnclaimedChannelsAndFailsForMLayerOutOfRangeAndRegisteredOnes_I052() {
        for (int c = 1; c <= 4; c++) {
            assertThat(table.register(c)).as("channel %d", c).isEqualTo(SUCCESS);
            assertThat(table.owner(c)).isEqualTo(Owner.APPLICATION);
            assertThat(table.register(c)).as("again %d", c).isEqualTo(FAILURE);
        }
        assertThat(table.register(0)).isEqualTo(FAILURE);
        assertThat(table.register(SignalTable.RESET_SIGNAL)).isEqualTo(FAILURE);
        assertThat(table.owner(0)).isEqualTo(Owner.MLAYER);
        assertThat(table.owner(5)).isEqualTo(Owner.MLAYER);
        assertThat(table.register(-1)).isEqualTo(FAILURE);
        assertThat(table.register(6)).isEqualTo(FAILURE);
        assertThat(table.register(Integer.MIN_VALUE)).isEqualTo(FAILURE);
    }

    /** I-053: clearing a channel the application does not own is a successful no-op; out of range fails. */
    @Test
    void clearOfAChannelTheApplicationDoesNotOwnIsASuccessfulNop_I053() {
        assertThat(table.clear(2)).isEqualTo(SUCCESS);
        assertThat(table.owner(2)).isEqualTo(Owner.UNCLAIMED);
        assertThat(table.clear(0)).isEqualTo(SUCCESS);
        assertThat(table.clear(5)).isEqualTo(SUCCESS);
        assertThat(table.owner(0)).isEqualTo(Owner.MLAYER);
        assertThat(table.owner(5)).isEqualTo(Owner.MLAYER);
        assertThat(table.clear(-1)).isEqualTo(FAILURE);
        assertThat(table.clear(6)).isEqualTo(FAILURE);

        assertThat(table.register(3)).isEqualTo(SUCCESS);
        assertThat(table.clear(3)).isEqualTo(SUCCESS);
        assertThat(table.owner(3)).isEqualTo(Owner.UNCLAIMED);
        assertThat(table.register(3)).as("a cleared channel can be registered again").isEqualTo(SUCCESS);
    }

    /** I-054 (the ownership half; the mid-isochron half is the engine's): only registered channels send. */
    @Test
    void sendingNeedsARegisteredChannel_I054() {
        assertThat(table.checkSend(1)).isEqualTo(FAILURE);
        assertThat(table.accumulate(1)).isEqualTo(FAILURE);
        assertThat(table.checkSend(0)).isEqualTo(FAILURE);
        assertThat(table.checkSend(-1)).isEqualTo(FAILURE);
        assertThat(table.checkSend(6)).isEqualTo(FAILURE);
        assertThat(table.pending()).as("a refused send leaves nothing behind").isZero();

        table.register(1);
        assertThat(table.checkSend(1)).isEqualTo(SUCCESS);
        assertThat(table.accumulate(1)).isEqualTo(SUCCESS);
        table.clear(1);
        assertThat(table.checkSend(1)).isEqualTo(FAILURE);
        assertThat(table.accumulate(1)).isEqualTo(FAILURE);
    }

    /** I-130, I-139: signal c is bit c + 2 of the bits byte, reset (5) is bit 7; bits 0-1 are the barriers'. */
    @Test
    void wireBitOfChannelCIsBitCPlusTwo_I130() {
        assertThat(SignalTable.wireBit(0)).isEqualTo(0x04);
        assertThat(SignalTable.wireBit(1)).isEqualTo(0x08);
        assertThat(SignalTable.wireBit(2)).isEqualTo(0x10);
        assertThat(SignalTable.wireBit(3)).isEqualTo(0x20);
        assertThat(SignalTable.wireBit(4)).isEqualTo(0x40);
        assertThat(SignalTable.wireBit(SignalTable.RESET_SIGNAL)).isEqualTo(0x80);
        for (int c = 0; c < SignalTable.NUM_SIGNALS; c++) {
            assertThat(SignalTable.wireBit(c) & 0x03).as("never a barrier bit").isZero();
        }
        assertThatThrownBy(() -> SignalTable.wireBit(6)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0..5");
        assertThatThrownBy(() -> SignalTable.wireBit(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Isotach report §6.4.5, pp. 47-50: the accumulator gathers bits until the engine takes them for one bs-marker. */
    @Test
    void accumulatedBitsAreTakenOnceAndThenCleared() {
        table.register(2);
        table.register(3);
        assertThat(table.takeAccumulated()).as("nothing pending = no marker").isZero();
        table.accumulate(2);
        assertThat(table.pending()).isEqualTo(0x10);
        table.accumulate(3);
        assertThat(table.takeAccumulated()).isEqualTo(0x30);
        assertThat(table.takeAccumulated()).isZero();
        assertThat(table.pending()).isZero();
    }

    /**
     * Isotach report App. J, iso_signal.c, pp. 231-235 (acknowledged open issue), Isotach report §3.5.2, pp. 18-20: two
     * pending sends on one channel leave as one bit.
     */
    @Test
    void twoSendsOnOneChannelWaitingTogetherLeaveAsOneBit() {
        table.register(4);
        table.accumulate(4);
        table.accumulate(4);
        assertThat(table.takeAccumulated()).isEqualTo(0x40);
        assertThat(table.takeAccumulated()).isZero();
    }

    /**
     * I-062, Isotach report App. A.8.1, pp. 100-104: the application can neither register nor send the reset channel.
     */
    @Test
    void theApplicationCannotRegisterOrSendTheResetChannel_I062() {
        assertThat(table.register(SignalTable.RESET_SIGNAL)).isEqualTo(FAILURE);
        assertThat(table.checkSend(SignalTable.RESET_SIGNAL)).isEqualTo(FAILURE);
        assertThat(table.accumulate(SignalTable.RESET_SIGNAL)).isEqualTo(FAILURE);
        assertThat(table.pending()).isZero();
    }

    /**
     * I-062, Isotach report §6.4.5, pp. 47-50; App. J, iso_signal.c, pp. 231-235: reset bits are counted, never
     * reported to the application.
     */
    @Test
    void resetBitsAreCountedAndNeverReported_I062() {
        for (int c = 1; c <= 4; c++) {
            table.register(c);
        }
        assertThat(table.notify(0x80)).isZero();
        assertThat(table.resetCount()).as("first reset = end of initialisation").isEqualTo(1);
        assertThat(table.notify(0x7C)).as("no reset bit").isEqualTo(0x78);
        assertThat(table.resetCount()).isEqualTo(1);
        assertThat(table.notify(0x83)).isZero();
        assertThat(table.resetCount()).as("a later reset: the engine shuts down").isEqualTo(2);
    }

    /** I-056: hosts that did not register a channel get no notice for it; the mLayer's channel 0 is masked. */
    @Test
    void notifyReportsOnlyChannelsTheApplicationRegistered_I056() {
        table.register(2);
        assertThat(table.notify(SignalTable.wireBit(1))).isZero();
        assertThat(table.notify(SignalTable.wireBit(0))).as("mLayer channel 0").isZero();
        assertThat(table.notify(SignalTable.wireBit(2))).isEqualTo(0x10);
        assertThat(table.notify(SignalTable.wireBit(1) | SignalTable.wireBit(2) | SignalTable.wireBit(4)))
                .isEqualTo(0x10);
        table.clear(2);
        assertThat(table.notify(SignalTable.wireBit(2))).as("cleared = no more notices").isZero();
    }

    /**
     * I-058, I-059, Isotach report App. J, iom.c, pp. 255-261: all application bits of one EOP come back as one notice
     * value.
     */
    @Test
    void signalsOfOnePulseMakeOneNoticeWithSeveralBits_I058_I059() {
        table.register(1);
        table.register(3);
        table.register(4);
        int eop = SignalTable.wireBit(1) | SignalTable.wireBit(3) | SignalTable.wireBit(4);
        assertThat(table.notify(eop)).isEqualTo(0x08 | 0x20 | 0x40);
    }

    /** I-130: barrier bits 0-1 and bits above the byte are not signal bits. */
    @Test
    void notifyIgnoresBarrierBitsAndBitsAboveTheByte() {
        table.register(1);
        assertThat(table.notify(0x03)).isZero();
        assertThat(table.notify(0x100 | 0x200 | 0x03 | SignalTable.wireBit(1))).isEqualTo(SignalTable.wireBit(1));
        assertThat(table.notify(-1 & ~0xFF)).isZero();
        assertThat(table.resetCount()).isZero();
    }

    @Test
    void describeNamesOwnerBitAndPendingSends() {
        table.register(2);
        table.accumulate(2);
        assertThat(table.describe(2)).contains("signal channel 2", "APPLICATION", "0x10", "send pending");
        assertThat(table.describe(5)).contains("MLAYER", "0x80", "reset");
        assertThat(table.describe(9)).contains("out of range", "1..4");
    }
}
