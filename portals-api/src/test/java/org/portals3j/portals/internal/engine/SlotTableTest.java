package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

class SlotTableTest {

    private static <T> T present(@Nullable T object) {
        if (object == null) {
            throw new AssertionError("expected an object, the table gave none");
        }
        return object;
    }

    @Test
    void aFreedSlotIsReusedWithANewGenerationSoOldHandlesDoNotNameTheNewObject() {
        SlotTable<EventQueueState> table = new SlotTable<>(EventQueueState::new);
        table.limit(4);
        EventQueueState a = present(table.allocate());
        int slot = a.slot;
        int generation = a.generation;
        table.free(a);
        assertThat(table.lookup(slot, generation)).isNull();
        EventQueueState b = present(table.allocate());
        assertThat(b).isSameAs(a);
        assertThat(b.generation).isNotEqualTo(generation);
        assertThat(table.lookup(slot, b.generation)).isSameAs(b);
        assertThat(table.lookup(slot, generation)).isNull();
    }

    @Test
    void theLimitCountsRetiredButUnfreedObjects() {
        SlotTable<EventQueueState> table = new SlotTable<>(EventQueueState::new);
        table.limit(2);
        EventQueueState a = present(table.allocate());
        present(table.allocate());
        assertThat(table.allocate()).isNull();
        table.retire(a);
        assertThat(table.lookup(a.slot, a.generation)).isNull();
        assertThat(table.allocate()).as("retired but not freed still occupies its slot").isNull();
        table.free(a);
        assertThat(table.allocate()).isNotNull();
    }

    @Test
    void clearKillsEveryHandle() {
        SlotTable<EventQueueState> table = new SlotTable<>(EventQueueState::new);
        table.limit(8);
        EventQueueState a = present(table.allocate());
        int generation = a.generation;
        table.clear();
        assertThat(table.inUse()).isZero();
        assertThat(table.lookup(a.slot, generation)).isNull();
    }
}
