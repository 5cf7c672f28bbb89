package org.portals3j.shim;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.portals3j.lapi.AsyncErrorType;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.lapi.RetFlag;
import org.portals3j.lapi.ReturnInfo;
import org.portals3j.shim.internal.ffm.LapiStructs;

/**
 * lapi.h against the Java side: lapi_layout.c prints every shared struct's size and every member's offset and
 * size (compared in both directions) and every number of the header, each compared with the Java value it
 * must equal (LapiError codes, LapiQuery ordinals, RetFlag ordinals).
 */
class LapiLayoutTest {
    private static final Map<String, Long> STRUCTS = new HashMap<>();
    private static final Map<String, Map<String, long[]>> FIELDS = new HashMap<>();
    private static final Map<String, Long> CONSTANTS = new LinkedHashMap<>();

    @BeforeAll
    static void runLapiLayout() throws Exception {
        CBuild.Outcome o = CJob.alone(CBuild.compile("lapi_layout"), Map.of());
        assertThat(o.status()).as(o.all()).isZero();
        for (String line : o.out().split("\n")) {
            String[] w = line.trim().split(" ");
            switch (w[0]) {
                case "struct" -> STRUCTS.put(w[1], Long.parseLong(w[2]));
                case "field" -> FIELDS.computeIfAbsent(w[1], k -> new LinkedHashMap<>())
                        .put(w[2], new long[] {Long.parseLong(w[3]), Long.parseLong(w[4])});
                case "const" -> CONSTANTS.put(w[1], Long.parseLong(w[2]));
                default -> throw new AssertionError("lapi_layout printed an unknown line: " + line);
            }
        }
    }

    @Test
    void everySharedStructHasTheSameSizeAndMembersInCAndJava() {
        for (StructLayout layout : LapiStructs.ALL) {
            String name = layout.name().orElseThrow();
            assertThat(STRUCTS).as("sizeof(%s)", name).containsEntry(name, layout.byteSize());
            Map<String, long[]> java = new LinkedHashMap<>();
            for (MemoryLayout member : layout.memberLayouts()) {
                member.name().ifPresent(m -> java.put(m,
                        new long[] {layout.byteOffset(groupElement(m)), member.byteSize()}));
            }
            Map<String, long[]> c = FIELDS.getOrDefault(name, Map.of());
            assertThat(c.keySet()).as("members of %s (C vs Java)", name).containsExactlyElementsOf(java.keySet());
            java.forEach((member, where) -> assertThat(c.getOrDefault(member, new long[0]))
                    .as("offsetof and sizeof %s.%s", name, member).containsExactly(where));
        }
    }

    @Test
    void everyReturnCodeOfLapiHIsTheJavaLayersValue() {
        assertThat(CONSTANTS).containsEntry("LAPI_SUCCESS", (long) LapiError.SUCCESS);
        for (LapiError e : LapiError.values()) {
            assertThat(CONSTANTS).as(e.cName()).containsEntry(e.cName(), (long) e.code());
        }
        assertThat(CONSTANTS.keySet().stream().filter(k -> k.startsWith("LAPI_ERR_")))
                .hasSize(LapiError.values().length);
    }

    @Test
    void queryNamesAreTheLapiQueryOrdinalsAndRetFlagsTheRetFlagOrdinals() {
        for (LapiQuery q : LapiQuery.values()) {
            assertThat(CONSTANTS).as(q.name()).containsEntry(q.name(), (long) q.ordinal());
        }
        assertThat(CONSTANTS).containsEntry("LAPI_NORMAL", (long) RetFlag.NORMAL.ordinal())
                .containsEntry("LAPI_SEND_REPLY", (long) RetFlag.SEND_REPLY.ordinal())
                .containsEntry("LAPI_LOCAL_STATE", (long) RetFlag.LOCAL_STATE.ordinal())
                .containsEntry("LAPI_BURY_MSG", (long) ReturnInfo.BURY_MSG);
    }

    @Test
    void errTypesAreTheAsyncErrorTypeOrdinals() {
        for (AsyncErrorType t : AsyncErrorType.values()) {
            assertThat(CONSTANTS).as(t.name()).containsEntry(t.name(), (long) t.ordinal());
        }
    }
}
