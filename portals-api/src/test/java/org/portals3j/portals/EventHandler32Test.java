package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The extension {@code Portals.eqAlloc(ni, count, handler)}: a 3.2 queue runs its handler once for each event
 * deposited, before it can be taken, and the queue keeps the event and the 3.2 numbering.
 */
class EventHandler32Test {
    private final PutReceiverFixture fixture;
    private final Portals receiver;
    private final NiHandle nr;

    EventHandler32Test() throws Exception {
        fixture = new PutReceiverFixture();
        receiver = fixture.receiver;
        nr = fixture.nr;
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    void theHandlerSeesEveryEventBeforeItIsTakenAndTheQueueKeepsIt() {
        List<String> seen = new ArrayList<>();
        EqHandle eq = fixture.attachPutBuffer(receiver.eqAlloc(nr, 16, e -> {
            synchronized (seen) {
                seen.add(e.type() + ":" + e.hdrData());
            }
        }));

        fixture.putOne(42);
        Event e = new Event();
        assertThat(receiver.eqWait(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(EventKind.PUT_START);
        long first = e.sequence();
        synchronized (seen) {
            assertThat(seen).as("both events were deposited before the first was taken")
                    .containsExactly("PUT_START:42", "PUT_END:42");
        }
        assertThat(receiver.eqWait(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(EventKind.PUT_END);
        assertThat(e.sequence()).as("numbered as any 3.2 queue's events").isGreaterThan(first);
    }

    @Test
    void handlerNoneIsAPlainQueue() {
        EqHandle eq = fixture.attachPutBuffer(receiver.eqAlloc(nr, 16, EventHandler.NONE));

        fixture.putOne(7);
        Event e = new Event();
        assertThat(receiver.eqWait(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.hdrData()).isEqualTo(7);
    }
}
