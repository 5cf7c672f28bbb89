package org.portals3j.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DepositWriterTest {

    @Test
    void theUpperLayersViewCannotMarkBytesDepositedOrTheTransferFailed() {
        assertThat(Arrays.stream(Deposit.class.getMethods()).filter(m -> m.getDeclaringClass() == Deposit.class)
                .filter(m -> Modifier.isPublic(m.getModifiers())).map(Method::getName))
                .containsExactlyInAnyOrder("accept", "discard", "accepted", "segment", "offset", "length", "failed",
                        "deposited", "attachment", "attach");
    }

    @Test
    void theWriterRecordsWhatLandedAndResetsForTheNextMessage() {
        DepositWriter writer = new DepositWriter();
        Deposit d = writer.deposit();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(64);
            d.accept(memory, 8, 32);
            d.attach("state");
            writer.addDeposited(16);
            writer.addDeposited(16);
            writer.fail();
            assertThat(d.deposited()).isEqualTo(32);
            assertThat(d.failed()).isTrue();

            assertThat(writer.reset()).isSameAs(d);
            assertThat(d.accepted()).isFalse();
            assertThat(d.segment()).isEqualTo(MemorySegment.NULL);
            assertThat(d.length()).isZero();
            assertThat(d.deposited()).isZero();
            assertThat(d.failed()).isFalse();
            assertThat(d.attachment()).isNull();

            d.accept(memory, 0, 64);
            assertThat(d.segment()).isSameAs(memory);
        }
    }
}
