package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The open-addressing index against java.util.HashMap, through growth and backward-shift deletion. */
class ExactIndexTest {

    @Test
    void agreesWithAHashMapUnderRandomInsertsAndRemovals() {
        ExactIndex index = new ExactIndex();
        Map<Long, ExactIndex.Bucket> model = new HashMap<>();
        Random random = new Random(7);
        for (int step = 0; step < 100_000; step++) {
            // A small key space forces collisions and long probe runs; some keys differ only in bit 63.
            long key = (random.nextInt(512)) | (random.nextBoolean() ? Long.MIN_VALUE : 0L);
            ExactIndex.Bucket existing = model.get(key);
            if (existing == null) {
                ExactIndex.Bucket b = index.getOrCreate(key);
                assertThat(b.key).isEqualTo(key);
                model.put(key, b);
            } else if (random.nextBoolean()) {
                index.remove(existing);
                model.remove(key);
            } else {
                assertThat(index.getOrCreate(key)).isSameAs(existing);
            }
            if (step % 1000 == 0) {
                assertThat(index.size()).isEqualTo(model.size());
                for (int k = 0; k < 512; k++) {
                    for (long high : new long[] {0L, Long.MIN_VALUE}) {
                        assertThat(index.get(k | high) == model.get(k | high)).as("bucket of %x", k | high).isTrue();
                    }
                }
            }
        }
    }
}
