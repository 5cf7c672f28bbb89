package org.portals3j.shim.internal.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code ptl_shim_table_t} of {@code shim_table.h}: the entry points {@code libportals3.so} calls, filled
 * here with FFM upcall stubs to {@link SharedUpcalls} (the functions both dialects share, once per
 * dialect, each stub bound to its {@link DialectBinding}), {@link PortalsUpcalls} (3.2's own forms),
 * {@link Portals33Upcalls} (3.3's, the {@code *_33} members), {@link RuntimeUpcalls} and {@link LapiUpcalls}
 * ({@code lapi.h}, the {@code lapi_*} members).
 *
 * <p>The functions are listed once ({@code FUNCTIONS}), as {@code shim_functions.h} lists them for C, and
 * the struct is made from the list the way {@code shim_table.h} makes it: the 3.2 block, the 3.3 block, the
 * runtime's members. Each member's C type maps 1:1 onto a {@link FunctionDescriptor}: {@code uint64_t}
 * (handles, sizes, match bits, and C pointers as addresses) to {@code JAVA_LONG}, {@code uint32_t} and
 * {@code int32_t} to {@code JAVA_INT}; the layout test checks every member and parameter against the C
 * compiler.
 * The stubs live as long as the process ({@link Arena#global()}).
 */
public final class ShimTable {
    /** {@code PTL_SHIM_ABI_VERSION}: a library of another version is refused with a message. */
    public static final int ABI_VERSION = 4;

    /** The kinds of line of {@code shim_functions.h}: which blocks of the table a function has a member in. */
    private enum Kind { BOTH, ONLY_32, ONLY_33, RUNTIME }

    /** One function of the list: its kind, its member's name (3.3's adds {@code _33}), its upcall and C type. */
    private record Function(Kind kind, String member, Class<?> owner, String method, FunctionDescriptor descriptor) {
    }

    /** One member of the struct: its name, its function, and the dialect its stub is bound to (shared ones). */
    private record Entry(String name, Function function, @Nullable DialectBinding binding) {
    }

    /** Every function, in the order of {@code shim_functions.h}. */
    private static final List<Function> FUNCTIONS = List.of(
            both("init", "init", JAVA_LONG),
            both("fini", "fini"),
            both("ni_init", "niInit", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            both("ni_fini", "niFini", JAVA_LONG),
            both("ni_status", "niStatus", JAVA_LONG, JAVA_INT, JAVA_LONG),
            both("ni_dist", "niDist", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG),
            both("ni_handle", "niHandle", JAVA_LONG, JAVA_LONG),
            both("get_uid", "getUid", JAVA_LONG, JAVA_LONG),
            both("get_id", "getId", JAVA_LONG, JAVA_LONG),
            only33("get_jid", "getJid", JAVA_LONG, JAVA_LONG),
            both("me_attach", "meAttach", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT,
                    JAVA_INT, JAVA_LONG),
            both("me_attach_any", "meAttachAny", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_INT, JAVA_LONG),
            // 3.2's listing has no unlink argument; 3.3's has one
            only32("me_insert", "meInsert", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG),
            only33("me_insert", "meInsert", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT,
                    JAVA_LONG),
            both("me_unlink", "meUnlink", JAVA_LONG),
            // 3.2 has unlink_nofit, 3.3 dropped it
            only32("md_attach", "mdAttach", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG),
            only33("md_attach", "mdAttach", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG),
            // 3.3's bound MD has unlink_op
            only32("md_bind", "mdBind", JAVA_LONG, JAVA_LONG, JAVA_LONG),
            only33("md_bind", "mdBind", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG),
            both("md_unlink", "mdUnlink", JAVA_LONG),
            both("md_update", "mdUpdate", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            // 3.3's queue has a handler
            only32("eq_alloc", "eqAlloc", JAVA_LONG, JAVA_LONG, JAVA_LONG),
            only33("eq_alloc", "eqAlloc", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            both("eq_free", "eqFree", JAVA_LONG),
            both("eq_get", "eqGet", JAVA_LONG, JAVA_LONG),
            both("eq_wait", "eqWait", JAVA_LONG, JAVA_LONG),
            only33("eq_poll", "eqPoll", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            // 3.3's entry has a job id
            only32("ac_entry", "acEntry", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            only33("ac_entry", "acEntry", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            both("put", "put", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG),
            only33("put_region", "putRegion", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            both("get", "get", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            only33("get_region", "getRegion", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_LONG, JAVA_LONG),
            only33("get_put", "getPut", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG,
                    JAVA_LONG, JAVA_LONG),
            runtime("rt_rank", "rank"),
            runtime("rt_size", "size"),
            runtime("rt_process_id", "processId", JAVA_INT, JAVA_LONG),
            runtime("rt_barrier", "barrier"),
            runtime("at_exit", "atExit"),
            lapi("lapi_init", "init", JAVA_LONG, JAVA_LONG),
            lapi("lapi_term", "term", JAVA_INT),
            lapi("lapi_qenv", "qenv", JAVA_INT, JAVA_INT, JAVA_LONG),
            lapi("lapi_senv", "senv", JAVA_INT, JAVA_INT, JAVA_INT),
            lapi("lapi_amsend", "amsend", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG, JAVA_LONG, JAVA_LONG),
            lapi("lapi_put", "put", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG),
            lapi("lapi_get", "get", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            lapi("lapi_setcntr", "setcntr", JAVA_INT, JAVA_LONG, JAVA_INT),
            lapi("lapi_getcntr", "getcntr", JAVA_INT, JAVA_LONG, JAVA_LONG),
            lapi("lapi_waitcntr", "waitcntr", JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG),
            lapi("lapi_fence", "fence", JAVA_INT),
            lapi("lapi_gfence", "gfence", JAVA_INT),
            lapi("lapi_addr_set", "addrSet", JAVA_INT, JAVA_LONG, JAVA_INT),
            lapi("lapi_addr_get", "addrGet", JAVA_INT, JAVA_LONG, JAVA_INT),
            lapi("lapi_address_init", "addressInit", JAVA_INT, JAVA_LONG, JAVA_LONG),
            lapi("lapi_probe", "probe", JAVA_INT),
            lapi("lapi_purge_totask", "purgeToTask", JAVA_INT, JAVA_INT));

    /** The struct's members after the version and size words, in order. */
    private static final List<Entry> ENTRIES = entries();

    /** The C struct: the version and size words, then one function pointer per entry. */
    public static final StructLayout LAYOUT = layout();

    private ShimTable() {
    }

    private static Function both(String member, String method, MemoryLayout... arguments) {
        return new Function(Kind.BOTH, member, SharedUpcalls.class, method, descriptor(arguments));
    }

    private static Function only32(String member, String method, MemoryLayout... arguments) {
        return new Function(Kind.ONLY_32, member, PortalsUpcalls.class, method, descriptor(arguments));
    }

    private static Function only33(String member, String method, MemoryLayout... arguments) {
        return new Function(Kind.ONLY_33, member, Portals33Upcalls.class, method, descriptor(arguments));
    }

    private static Function runtime(String member, String method, MemoryLayout... arguments) {
        return new Function(Kind.RUNTIME, member, RuntimeUpcalls.class, method, descriptor(arguments));
    }

    /** A function of {@code lapi.h}: a runtime member (written out in {@code lapi.c}) served by LapiUpcalls. */
    private static Function lapi(String member, String method, MemoryLayout... arguments) {
        return new Function(Kind.RUNTIME, member, LapiUpcalls.class, method, descriptor(arguments));
    }

    private static FunctionDescriptor descriptor(MemoryLayout... arguments) {
        return FunctionDescriptor.of(JAVA_INT, arguments);
    }

    /** The 3.2 block (shared functions bound to 3.2), the 3.3 block ({@code _33}, bound to 3.3), the runtime's. */
    private static List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        for (Function f : FUNCTIONS) {
            if (f.kind() == Kind.BOTH || f.kind() == Kind.ONLY_32) {
                entries.add(new Entry(f.member(), f, f.kind() == Kind.BOTH ? DialectBinding.PORTALS_3_2 : null));
            }
        }
        for (Function f : FUNCTIONS) {
            if (f.kind() == Kind.BOTH || f.kind() == Kind.ONLY_33) {
                entries.add(new Entry(f.member() + "_33", f,
                        f.kind() == Kind.BOTH ? DialectBinding.PORTALS_3_3 : null));
            }
        }
        for (Function f : FUNCTIONS) {
            if (f.kind() == Kind.RUNTIME) {
                entries.add(new Entry(f.member(), f, null));
            }
        }
        return List.copyOf(entries);
    }

    /** Each member's name and C type (arguments as FFM layouts), in the struct's order: for the layout test. */
    public static Map<String, FunctionDescriptor> descriptors() {
        Map<String, FunctionDescriptor> descriptors = new LinkedHashMap<>();
        for (Entry e : ENTRIES) {
            descriptors.put(e.name(), e.function().descriptor());
        }
        return descriptors;
    }

    private static StructLayout layout() {
        List<MemoryLayout> members = new ArrayList<>();
        members.add(JAVA_INT.withName("abi_version"));
        members.add(JAVA_INT.withName("table_size"));
        for (Entry e : ENTRIES) {
            members.add(ADDRESS.withName(e.name()));
        }
        return MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new)).withName("ptl_shim_table_t");
    }

    /**
     * Fills the table at {@code address} with upcall stubs.
     *
     * @return null on success, else why the table cannot be filled (a library of another build)
     */
    public static @Nullable String install(long address) throws ReflectiveOperationException {
        if (ADDRESS.byteSize() != 8) {
            return "Portals3J's C API needs a 64-bit JVM";
        }
        MemorySegment table = MemorySegment.ofAddress(address).reinterpret(LAYOUT.byteSize());
        int version = table.get(JAVA_INT, LAYOUT.byteOffset(groupElement("abi_version")));
        int size = table.get(JAVA_INT, LAYOUT.byteOffset(groupElement("table_size")));
        if (version != ABI_VERSION || size != LAYOUT.byteSize()) {
            return "libportals3.so (table version " + version + ", " + size + " bytes) and the Portals3J classes"
                    + " (version " + ABI_VERSION + ", " + LAYOUT.byteSize() + " bytes) come from different builds:"
                    + " point PORTALS3J_CLASSPATH at the classes built with this library";
        }
        Linker linker = Linker.nativeLinker();
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (Entry e : ENTRIES) {
            Function f = e.function();
            MethodType type = f.descriptor().toMethodType();
            DialectBinding binding = e.binding();
            MethodHandle target = binding == null ? lookup.findStatic(f.owner(), f.method(), type)
                    : MethodHandles.insertArguments(lookup.findStatic(f.owner(), f.method(),
                            type.insertParameterTypes(0, DialectBinding.class)), 0, binding);
            MemorySegment stub = linker.upcallStub(target, f.descriptor(), Arena.global());
            table.set(ADDRESS, LAYOUT.byteOffset(groupElement(e.name())), stub);
        }
        return null;
    }
}
