package org.portals3j.shim;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.shim.internal.ffm.CStructs;
import org.portals3j.shim.internal.ffm.ShimTable;

/**
 * The C compiler's view of the shared structs and constants (layout_check.c prints it) against the Java
 * side's: every struct's size, every member's offset and size, in both directions (a member only one side
 * has fails), and every constant of portals3.h against the Java API value it must equal.
 */
class LayoutTest {
    private static final Map<String, Long> STRUCTS = new HashMap<>();
    private static final Map<String, Map<String, long[]>> FIELDS = new HashMap<>();
    private static final Map<String, Long> CONSTANTS = new LinkedHashMap<>();

    @BeforeAll
    static void runLayoutCheck() throws Exception {
        Path program = CBuild.compile("layout_check");
        CBuild.Outcome o = CJob.alone(program, Map.of());
        assertThat(o.status()).as(o.all()).isZero();
        for (String line : o.out().split("\n")) {
            String[] w = line.trim().split(" ");
            switch (w[0]) {
                case "struct" -> STRUCTS.put(w[1], Long.parseLong(w[2]));
                case "field" -> FIELDS.computeIfAbsent(w[1], k -> new LinkedHashMap<>())
                        .put(w[2], new long[] {Long.parseLong(w[3]), Long.parseLong(w[4])});
                case "const" -> CONSTANTS.put(w[1], Long.parseLong(w[2]));
                default -> throw new AssertionError("layout_check printed an unknown line: " + line);
            }
        }
    }

    @Test
    void everySharedStructHasTheSameSizeAndMembersInCAndJava() {
        List<StructLayout> layouts = new java.util.ArrayList<>(CStructs.ALL);
        layouts.add(ShimTable.LAYOUT);
        for (StructLayout layout : layouts) {
            String name = layout.name().orElseThrow();
            assertThat(STRUCTS).as("sizeof(%s)", name).containsEntry(name, layout.byteSize());
            assertThat(FIELDS).as("members of %s printed by layout_check", name).containsKey(name);
            Map<String, long[]> c = FIELDS.getOrDefault(name, Map.of());
            Map<String, long[]> java = new LinkedHashMap<>();
            for (MemoryLayout member : layout.memberLayouts()) {
                member.name().ifPresent(m -> java.put(m,
                        new long[] {layout.byteOffset(groupElement(m)), member.byteSize()}));
            }
            assertThat(c.keySet()).as("members of %s (C vs Java)", name).containsExactlyElementsOf(java.keySet());
            for (Map.Entry<String, long[]> e : java.entrySet()) {
                assertThat(c.getOrDefault(e.getKey(), new long[0])).as("offsetof and sizeof %s.%s", name, e.getKey())
                        .containsExactly(e.getValue());
            }
        }
        assertThat(CONSTANTS).containsEntry("PTL_SHIM_ABI_VERSION", (long) ShimTable.ABI_VERSION);
    }

    @Test
    void everyReturnCodeOfTheHeaderIsTheJavaReturnCodesValue() {
        for (ReturnCode code : ReturnCode.values()) {
            assertThat(CONSTANTS).as(code.specName()).containsEntry(code.specName(), (long) code.value());
        }
        assertThat(CONSTANTS.keySet().stream().filter(k -> CONSTANTS.get(k) != null && isReturnCode(k)))
                .hasSize(ReturnCode.values().length);
    }

    private static boolean isReturnCode(String name) {
        for (ReturnCode code : ReturnCode.values()) {
            if (code.specName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void enumsOfTheHeaderAreTheJavaOrdinals() {
        for (EventKind k : EventKind.values()) {
            assertThat(CONSTANTS).containsEntry(k.specName(), (long) k.ordinal());
        }
        assertThat(CONSTANTS).containsEntry("PTL_RETAIN", (long) Unlink.RETAIN.ordinal())
                .containsEntry("PTL_UNLINK", (long) Unlink.UNLINK.ordinal())
                .containsEntry("PTL_INS_BEFORE", (long) InsertPosition.BEFORE.ordinal())
                .containsEntry("PTL_INS_AFTER", (long) InsertPosition.AFTER.ordinal())
                .containsEntry("PTL_ACK_REQ", (long) AckRequest.ACK_REQ.ordinal())
                .containsEntry("PTL_NOACK_REQ", (long) AckRequest.NOACK_REQ.ordinal());
        for (NiFailType f : NiFailType.values()) {
            assertThat(CONSTANTS).containsEntry("PTL_NI_" + f.name(), (long) f.ordinal());
        }
    }

    @Test
    void optionBitsWildcardsAndRegistersOfTheHeaderAreTheJavaValues() {
        for (MdOption o : MdOption.values()) {
            assertThat(CONSTANTS).containsEntry("PTL_MD_" + o.name(), (long) o.bit());
        }
        assertThat(CONSTANTS).containsEntry("PTL_MD_THRESH_INF", (long) MemoryDescriptor.THRESH_INF)
                .containsEntry("PTL_NID_ANY", (long) ProcessId.NID_ANY)
                .containsEntry("PTL_PID_ANY", (long) ProcessId.PID_ANY)
                .containsEntry("PTL_UID_ANY", (long) Portals.UID_ANY)
                .containsEntry("PTL_PT_INDEX_ANY", (long) Portals.PT_INDEX_ANY)
                .containsEntry("PTL_EQ_NONE", org.portals3j.portals.EqHandle.NONE.value())
                .containsEntry("PTL_MD_NONE", org.portals3j.portals.MdHandle.NONE.value())
                .containsEntry("PTL_IFACE_DEFAULT", (long) org.portals3j.portals.InterfaceId.DEFAULT.value());
        for (int i = 0; i < StatusRegister.COUNT; i++) {
            StatusRegister r = new StatusRegister(i);
            assertThat(CONSTANTS).as(r.specName()).containsEntry(r.specName(), (long) i);
        }
    }
}
