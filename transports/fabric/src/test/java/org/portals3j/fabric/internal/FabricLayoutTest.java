package org.portals3j.fabric.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every struct layout of {@link Structs} against the C compiler: src/test/c/layout_check.c prints sizeof and
 * offsetof of each field from the installed libfabric headers.
 */
class FabricLayoutTest {
    @Test
    void javaLayoutsMatchTheHeaders() throws IOException, InterruptedException {
        assumeTrue(Files.exists(Path.of("/usr/include/rdma/fabric.h")),
                "the libfabric headers are not installed (Debian: apt-get install libfabric-dev)");
        Path out = Path.of(property("portals3j.fabric.c.build"));
        Files.createDirectories(out);
        Path exe = out.resolve("layout_check");
        Path src = Path.of(property("portals3j.fabric.c.sources")).resolve("layout_check.c");
        assertThat(run("gcc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", src.toString(), "-o", exe.toString()))
                .isEmpty();
        Map<String, Long> c = new HashMap<>();
        for (String line : run(exe.toString()).lines().toList()) {
            String[] f = line.split(" ");
            c.put(f[0] + (f.length == 3 ? " size" : ""), Long.parseLong(f[f.length - 1]));
        }
        int checked = 0;
        for (StructLayout s : Structs.ALL) {
            String name = s.name().orElseThrow();
            assertThat(c).as(name + " size printed by layout_check.c").containsKey(name + " size");
            assertThat(s.byteSize()).as(name + " size").isEqualTo(c.getOrDefault(name + " size", -1L));
            for (MemoryLayout m : s.memberLayouts()) {
                if (m.name().isEmpty()) {
                    continue;
                }
                String field = name + "." + m.name().get();
                assertThat(c).as(field + " printed by layout_check.c").containsKey(field);
                assertThat(Structs.offset(s, m.name().get())).as(field).isEqualTo(c.getOrDefault(field, -1L));
                checked++;
            }
        }
        long printed = c.keySet().stream().filter(k -> !k.endsWith(" size")).count();
        assertThat(checked).as("every field layout_check.c prints has a Java layout").isEqualTo(printed);
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null) {
            throw new IllegalStateException(name + " is not set: run the tests through Maven (transports/fabric)");
        }
        return v;
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
