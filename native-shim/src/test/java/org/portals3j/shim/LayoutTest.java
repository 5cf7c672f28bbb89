package org.portals3j.shim;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.Portals;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.shim.internal.ffm.CConstants;
import org.portals3j.shim.internal.ffm.CStructs;
import org.portals3j.shim.internal.ffm.CStructs33;
import org.portals3j.shim.internal.ffm.ShimTable;

/**
 * The C compiler's view of the shared structs and constants against the Java side's, for each dialect:
 * layout_check.c (Portals 3.2) and layout_check33.c (compiled with -DPTL_DIALECT_33) print every struct's
 * size, every member's offset and size (compared in both directions: a member only one side has fails),
 * and every constant of portals3.h, each compared with the Java API value it must equal.
 */
class LayoutTest {
    /** What one layout_check program printed. */
    private record CView(Map<String, Long> structs, Map<String, Map<String, long[]>> fields,
                         Map<String, Long> constants, Map<String, Map<Integer, String>> strings,
                         Map<String, String> entries) {

        static CView empty() {
            return new CView(new HashMap<>(), new HashMap<>(), new LinkedHashMap<>(), new HashMap<>(),
                    new LinkedHashMap<>());
        }

        /** What {@code function} (PtlErrorStr, PtlNIFailStr, PtlEventKindStr) returned for {@code value}. */
        String string(String function, int value) {
            return strings.getOrDefault(function, Map.of()).getOrDefault(value, "(not printed)");
        }

        /** Runs {@code program} and keeps what it printed. */
        void read(Path program) throws Exception {
            CBuild.Outcome o = CJob.alone(program, Map.of());
            assertThat(o.status()).as(o.all()).isZero();
            for (String line : o.out().split("\n")) {
                String[] w = line.trim().split(" ");
                switch (w[0]) {
                    case "struct" -> structs.put(w[1], Long.parseLong(w[2]));
                    case "field" -> fields.computeIfAbsent(w[1], k -> new LinkedHashMap<>())
                            .put(w[2], new long[] {Long.parseLong(w[3]), Long.parseLong(w[4])});
                    case "const" -> constants.put(w[1], Long.parseLong(w[2]));
                    case "string" -> strings.computeIfAbsent(w[1], k -> new HashMap<>())
                            .put(Integer.parseInt(w[2]), w[3]);
                    case "entry" -> entries.put(w[1], line.trim().substring(w[0].length() + w[1].length() + 2));
                    default -> throw new AssertionError(program + " printed an unknown line: " + line);
                }
            }
        }

        void hasTheLayoutsOf(List<StructLayout> layouts) {
            for (StructLayout layout : layouts) {
                String name = layout.name().orElseThrow();
                assertThat(structs).as("sizeof(%s)", name).containsEntry(name, layout.byteSize());
                assertThat(fields).as("members of %s printed by layout_check", name).containsKey(name);
                Map<String, long[]> c = fields.getOrDefault(name, Map.of());
                Map<String, long[]> java = new LinkedHashMap<>();
                for (MemoryLayout member : layout.memberLayouts()) {
                    member.name().ifPresent(m -> java.put(m,
                            new long[] {layout.byteOffset(groupElement(m)), member.byteSize()}));
                }
                assertThat(c.keySet()).as("members of %s (C vs Java)", name).containsExactlyElementsOf(java.keySet());
                for (Map.Entry<String, long[]> e : java.entrySet()) {
                    assertThat(c.getOrDefault(e.getKey(), new long[0]))
                            .as("offsetof and sizeof %s.%s", name, e.getKey())
                            .containsExactly(e.getValue());
                }
            }
        }
    }

    /**
     * The 3.3 names of the return codes (the 3.3 reference implementation's {@code p3/errno.h}) and the code
     * each is in this implementation.
     */
    private static final Map<String, ReturnCode> CODES_33 = Map.ofEntries(
            Map.entry("PTL_OK", ReturnCode.OK),
            Map.entry("PTL_AC_INDEX_INVALID", ReturnCode.AC_INV_INDEX),
            Map.entry("PTL_EQ_DROPPED", ReturnCode.EQ_DROPPED),
            Map.entry("PTL_EQ_EMPTY", ReturnCode.EQ_EMPTY),
            Map.entry("PTL_EQ_INVALID", ReturnCode.INV_EQ),
            Map.entry("PTL_FAIL", ReturnCode.FAIL),
            Map.entry("PTL_HANDLE_INVALID", ReturnCode.INV_HANDLE),
            Map.entry("PTL_IFACE_INVALID", ReturnCode.INIT_INV),
            Map.entry("PTL_MD_ILLEGAL", ReturnCode.ILL_MD),
            Map.entry("PTL_MD_INVALID", ReturnCode.INV_MD),
            Map.entry("PTL_MD_IN_USE", ReturnCode.MD_INUSE),
            Map.entry("PTL_MD_NO_UPDATE", ReturnCode.NOUPDATE),
            Map.entry("PTL_ME_INVALID", ReturnCode.INV_ME),
            Map.entry("PTL_ME_IN_USE", ReturnCode.INUSE),
            Map.entry("PTL_ME_LIST_TOO_LONG", ReturnCode.ML_TOOLONG),
            Map.entry("PTL_NI_INVALID", ReturnCode.INV_NI),
            Map.entry("PTL_NO_INIT", ReturnCode.NOINIT),
            Map.entry("PTL_NO_SPACE", ReturnCode.NOSPACE),
            Map.entry("PTL_PID_INVALID", ReturnCode.INIT_DUP),
            Map.entry("PTL_PROCESS_INVALID", ReturnCode.INV_PROC),
            Map.entry("PTL_PT_FULL", ReturnCode.PT_FULL),
            Map.entry("PTL_PT_INDEX_INVALID", ReturnCode.INV_PTINDEX),
            Map.entry("PTL_SEGV", ReturnCode.SEGV),
            Map.entry("PTL_SR_INDEX_INVALID", ReturnCode.INV_SR_INDX));

    private static final CView C32 = CView.empty();
    private static final CView C33 = CView.empty();

    @BeforeAll
    static void runLayoutChecks() throws Exception {
        C32.read(CBuild.compile("layout_check"));
        C33.read(CBuild.compile33("layout_check33"));
    }

    // ==== Portals 3.2 ===============================================================================

    @Test
    void everySharedStructHasTheSameSizeAndMembersInCAndJava() {
        List<StructLayout> layouts = new ArrayList<>(CStructs.ALL);
        layouts.add(ShimTable.LAYOUT);
        C32.hasTheLayoutsOf(layouts);
        assertThat(C32.constants()).containsEntry("PTL_SHIM_ABI_VERSION", (long) ShimTable.ABI_VERSION);
    }

    /**
     * Every member of the table (printed by layout_check from shim_functions.h, the list the C side makes
     * the table and the entry points from) takes, parameter by parameter, what its Java upcall stub is
     * made for: a 64-bit C type where the descriptor has {@code JAVA_LONG}, a 32-bit one for {@code JAVA_INT}.
     */
    @Test
    void everyEntryOfTheTableHasTheParametersOfItsJavaUpcall() {
        Map<String, List<String>> java = new LinkedHashMap<>();
        ShimTable.descriptors().forEach((member, descriptor) -> {
            assertThat(descriptor.returnLayout()).as("%s returns", member).contains(ValueLayout.JAVA_INT);
            java.put(member, descriptor.argumentLayouts().stream().map(LayoutTest::cTypeOf).toList());
        });
        Map<String, List<String>> c = new LinkedHashMap<>();
        C32.entries().forEach((member, parameters) -> c.put(member, cTypesOf(parameters)));
        assertThat(c.keySet()).as("the table's members, C vs Java, in order").containsExactlyElementsOf(java.keySet());
        java.forEach((member, types) -> assertThat(c.getOrDefault(member, List.of()))
                .as("the parameters of %s (C vs Java)", member)
                .isEqualTo(types));
    }

    /** The C type of a parameter's layout: what the table's C declaration must say for it. */
    private static String cTypeOf(MemoryLayout layout) {
        if (layout.equals(ValueLayout.JAVA_LONG)) {
            return "64-bit";
        }
        return layout.equals(ValueLayout.JAVA_INT) ? "32-bit" : "unexpected " + layout;
    }

    /** The types of {@code (uint64_t ni, int32_t rank)} as {@link #cTypeOf} names them; none for {@code (void)}. */
    private static List<String> cTypesOf(String parameters) {
        String list = parameters.substring(1, parameters.length() - 1).trim();
        List<String> types = new ArrayList<>();
        if (list.equals("void")) {
            return types;
        }
        for (String parameter : list.split(",")) {
            String type = parameter.trim().split(" ")[0];
            types.add(switch (type) {
                case "uint64_t", "int64_t" -> "64-bit";
                case "uint32_t", "int32_t" -> "32-bit";
                default -> "unexpected " + type;
            });
        }
        return types;
    }

    @Test
    void everyReturnCodeOfTheHeaderIsTheJavaReturnCodesValue() {
        for (ReturnCode code : ReturnCode.values()) {
            assertThat(C32.constants()).as(code.specName()).containsEntry(code.specName(), (long) code.value());
        }
        assertThat(C32.constants().keySet().stream().filter(LayoutTest::isReturnCode))
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
            if (!k.isPortals33Only()) {
                assertThat(C32.constants()).containsEntry(k.specName(), (long) k.ordinal());
            }
        }
        assertThat(C32.constants()).containsEntry("PTL_RETAIN", (long) Unlink.RETAIN.ordinal())
                .containsEntry("PTL_UNLINK", (long) Unlink.UNLINK.ordinal())
                .containsEntry("PTL_INS_BEFORE", (long) InsertPosition.BEFORE.ordinal())
                .containsEntry("PTL_INS_AFTER", (long) InsertPosition.AFTER.ordinal())
                .containsEntry("PTL_ACK_REQ", (long) AckRequest.ACK_REQ.ordinal())
                .containsEntry("PTL_NOACK_REQ", (long) AckRequest.NOACK_REQ.ordinal());
        for (NiFailType f : NiFailType.values()) {
            assertThat(C32.constants()).containsEntry("PTL_NI_" + f.name(), (long) f.ordinal());
        }
    }

    @Test
    void optionBitsWildcardsAndRegistersOfTheHeaderAreTheJavaValues() {
        for (MdOption o : MdOption.values()) {
            if ((o.bit() & MdOption.ALL_BITS) != 0) {
                assertThat(C32.constants()).containsEntry("PTL_MD_" + o.name(), (long) o.bit());
            } else {
                assertThat(C32.constants()).as("the 3.3 option %s is not a 3.2 name", o)
                        .doesNotContainKey("PTL_MD_" + o.name());
            }
        }
        assertThat(C32.constants()).containsEntry("PTL_MD_THRESH_INF", (long) MemoryDescriptor.THRESH_INF)
                .containsEntry("PTL_NID_ANY", (long) ProcessId.NID_ANY)
                .containsEntry("PTL_PID_ANY", (long) ProcessId.PID_ANY)
                .containsEntry("PTL_UID_ANY", (long) Portals.UID_ANY)
                .containsEntry("PTL_PT_INDEX_ANY", (long) Portals.PT_INDEX_ANY)
                .containsEntry("PTL_EQ_NONE", EqHandle.NONE.value())
                .containsEntry("PTL_MD_NONE", MdHandle.NONE.value())
                .containsEntry("PTL_IFACE_DEFAULT", (long) InterfaceId.DEFAULT.value());
        for (int i = 0; i < StatusRegister.COUNT; i++) {
            StatusRegister r = new StatusRegister(i);
            assertThat(C32.constants()).as(r.specName()).containsEntry(r.specName(), (long) i);
        }
    }

    @Test
    void ptlErrorStrNamesEveryCodeAsTheSpecSpellsItAndNothingElse() {
        for (int v = 0; v < 32; v++) {
            String expected = v < ReturnCode.values().length ? ReturnCode.of(v).specName() : "PTL_UNKNOWN_ERROR";
            assertThat(C32.string("PtlErrorStr", v)).as("PtlErrorStr(%d)", v).isEqualTo(expected);
        }
    }

    @Test
    void ptlEventKindStrAndPtlNiFailStrNameThe32KindsAndTheFailureKinds() {
        for (int v = 0; v < 32; v++) {
            EventKind k = v < EventKind.values().length ? EventKind.of(v) : null;
            String kind = k != null && !k.isPortals33Only() ? k.specName() : "PTL_UNKNOWN_EVENT_KIND";
            assertThat(C32.string("PtlEventKindStr", v)).as("PtlEventKindStr(%d)", v).isEqualTo(kind);
            String fail = v < NiFailType.values().length ? "PTL_NI_" + NiFailType.of(v).name() : "PTL_NI_UNKNOWN_ERROR";
            assertThat(C32.string("PtlNIFailStr", v)).as("PtlNIFailStr(ni, %d)", v).isEqualTo(fail);
            assertThat(C33.string("PtlNIFailStr", v)).as("3.3 PtlNIFailStr(ni, %d)", v).isEqualTo(fail);
        }
    }

    // ==== Portals 3.3 ===============================================================================

    @Test
    void every33StructHasTheSameSizeAndMembersInCAndJava() {
        List<StructLayout> layouts = new ArrayList<>(CStructs33.ALL);
        layouts.add(CStructs.PROCESS_ID);
        C33.hasTheLayoutsOf(layouts);
    }

    @Test
    void every33ReturnCodeNameIsTheCodeOfItsMeaningAndThe32NamesAreKept() {
        CODES_33.forEach((name, code) -> assertThat(C33.constants()).as(name).containsEntry(name, (long) code.value()));
        for (ReturnCode code : ReturnCode.values()) {
            long expected = code == ReturnCode.PT_INV_INDEX ? ReturnCode.INV_PTINDEX.value() : code.value();
            assertThat(C33.constants()).as("%s in a 3.3 program (3.3 has one code for a bad portal index)",
                    code.specName()).containsEntry(code.specName(), expected);
        }
    }

    @Test
    void the33EventKindsAreThe33EnumAndEveryJavaKindMapsToTheOneOfItsName() {
        List<String> order = List.of("GET_START", "GET_END", "PUT_START", "PUT_END", "GETPUT_START", "GETPUT_END",
                "REPLY_START", "REPLY_END", "SEND_START", "SEND_END", "ACK", "UNLINK");
        for (int i = 0; i < order.size(); i++) {
            assertThat(C33.constants()).containsEntry("PTL_EVENT_" + order.get(i), (long) i);
        }
        for (EventKind k : EventKind.values()) {
            String name = k.isFail() ? k.name().replace("_FAIL", "_END") : k.name();
            assertThat(C33.constants()).as("%s as a 3.3 kind", k)
                    .containsEntry("PTL_EVENT_" + name, (long) CConstants.eventKind33(k));
            if (k.isFail()) {
                assertThat(C33.constants()).as("3.3 has no %s", k.specName()).doesNotContainKey(k.specName());
            }
        }
    }

    @Test
    void ptlErrorStrAndPtlEventKindStrOfA33ProgramSpellThe33Names() {
        Map<Integer, String> names = new HashMap<>();
        CODES_33.forEach((name, code) -> names.put(code.value(), name));
        names.put(ReturnCode.INV_ASIZE.value(), "PTL_INV_ASIZE"); // 3.3 has no name for these two
        names.put(ReturnCode.INV_REG.value(), "PTL_INV_REG");
        for (int v = 0; v < 32; v++) {
            assertThat(C33.string("PtlErrorStr", v)).as("3.3 PtlErrorStr(%d)", v)
                    .isEqualTo(names.getOrDefault(v, "PTL_UNKNOWN_ERROR"));
        }
        List<String> order = List.of("GET_START", "GET_END", "PUT_START", "PUT_END", "GETPUT_START", "GETPUT_END",
                "REPLY_START", "REPLY_END", "SEND_START", "SEND_END", "ACK", "UNLINK");
        for (int v = 0; v < 32; v++) {
            assertThat(C33.string("PtlEventKindStr", v)).as("3.3 PtlEventKindStr(%d)", v)
                    .isEqualTo(v < order.size() ? "PTL_EVENT_" + order.get(v) : "PTL_UNKNOWN_EVENT_KIND");
        }
    }

    @Test
    void the33EnumsOptionsAndWildcardsAreTheJavaValues() {
        for (MdOption o : MdOption.values()) {
            assertThat(C33.constants()).containsEntry("PTL_MD_" + o.name(), (long) o.bit());
        }
        assertThat(C33.constants()).containsEntry("PTL_RETAIN", (long) Unlink.RETAIN.ordinal())
                .containsEntry("PTL_UNLINK", (long) Unlink.UNLINK.ordinal())
                .containsEntry("PTL_INS_BEFORE", (long) InsertPosition.BEFORE.ordinal())
                .containsEntry("PTL_INS_AFTER", (long) InsertPosition.AFTER.ordinal())
                .containsEntry("PTL_ACK_REQ", (long) AckRequest.ACK_REQ.ordinal())
                .containsEntry("PTL_NO_ACK_REQ", (long) AckRequest.NOACK_REQ.ordinal())
                .containsEntry("PTL_NOACK_REQ", (long) AckRequest.NOACK_REQ.ordinal())
                .containsEntry("PTL_MD_THRESH_INF", (long) MemoryDescriptor.THRESH_INF)
                .containsEntry("PTL_NID_ANY", (long) ProcessId.NID_ANY)
                .containsEntry("PTL_PID_ANY", (long) ProcessId.PID_ANY)
                .containsEntry("PTL_UID_ANY", (long) Portals33.UID_ANY)
                .containsEntry("PTL_JID_ANY", (long) Portals33.JID_ANY)
                .containsEntry("PTL_PT_INDEX_ANY", (long) Portals33.PT_INDEX_ANY)
                .containsEntry("PTL_EQ_NONE", EqHandle.NONE.value())
                .containsEntry("PTL_MD_NONE", MdHandle.NONE.value())
                .containsEntry("PTL_HANDLE_NONE", EqHandle.NONE.value())
                .containsEntry("PTL_INVALID_HANDLE", -1L)
                .containsEntry("PTL_EQ_HANDLER_NONE", 0L)
                .containsEntry("PTL_IFACE_DEFAULT", (long) InterfaceId.DEFAULT.value());
        assertThat(C33.constants()).containsKey("PTL_TIME_FOREVER");
        assertThat(CConstants.timeoutFromC(C33.constants().getOrDefault("PTL_TIME_FOREVER", 0L).intValue()))
                .as("PTL_TIME_FOREVER").isEqualTo(Portals33.TIME_FOREVER);
        assertThat(CConstants.timeoutFromC(-2)).as("the largest finite ptl_time_t").isEqualTo(0xFFFF_FFFEL);
        for (NiFailType f : NiFailType.values()) {
            assertThat(C33.constants()).containsEntry("PTL_NI_" + f.name(), (long) f.ordinal());
        }
    }
}
