package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * JMH's annotation processor must have run on the main sources (JDK 23+ runs processors only from
 * annotationProcessorPaths): without META-INF/BenchmarkList, benchmarks.jar fails at run time.
 */
class BenchmarkListTest {

    @Test
    void theBuiltClassesListEveryBenchmark() throws IOException {
        List<URL> lists = Collections.list(getClass().getClassLoader().getResources("META-INF/BenchmarkList"));
        assertThat(lists).as("META-INF/BenchmarkList on the test class path").isNotEmpty();
        URL list = lists.stream().filter(u -> u.toString().contains("/classes/")).findFirst().orElse(lists.get(0));
        String text;
        try (InputStream in = list.openStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(text).contains(
                "org.portals3j.bench.MatchingBenchmark", "org.portals3j.bench.PutPathBenchmark",
                "org.portals3j.bench.BandwidthBenchmark", "org.portals3j.bench.DatagramMacBenchmark");
        // the generated harness classes are there too
        assertThat(getClass().getClassLoader().getResource(
                "org/portals3j/bench/jmh_generated/MatchingBenchmark_put_jmhTest.class")).isNotNull();
    }
}
