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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code ptl_shim_table_t} of {@code shim_table.h}: the entry points {@code libportals3.so} calls, filled
 * here with FFM upcall stubs to {@link PortalsUpcalls} (Portals 3.2), {@link Portals33Upcalls} (the
 * {@code *_33} entries, Portals 3.3) and {@link RuntimeUpcalls}.
 *
 * <p>Each entry's C type maps 1:1 onto a {@link FunctionDescriptor}: {@code uint64_t} (handles, sizes,
 * match bits, and C pointers as addresses) to {@code JAVA_LONG}, {@code uint32_t}/{@code int32_t} to
 * {@code JAVA_INT}. The stubs live as long as the process ({@link Arena#global()}).
 */
public final class ShimTable {
    /** {@code PTL_SHIM_ABI_VERSION}: a library of another version is refused with a message. */
    public static final int ABI_VERSION = 3;

    private static final FunctionDescriptor NO_ARGS = FunctionDescriptor.of(JAVA_INT);

    /** One entry: the C member's name, the Java target, and its C signature. */
    private record Entry(String name, Class<?> owner, String method, FunctionDescriptor descriptor) {
    }

    private static final List<Entry> ENTRIES = List.of(
            portals("init", "init", JAVA_LONG),
            portals("fini", "fini"),
            portals("ni_init", "niInit", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals("ni_fini", "niFini", JAVA_LONG),
            portals("ni_status", "niStatus", JAVA_LONG, JAVA_INT, JAVA_LONG),
            portals("ni_dist", "niDist", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG),
            portals("ni_handle", "niHandle", JAVA_LONG, JAVA_LONG),
            portals("get_uid", "getUid", JAVA_LONG, JAVA_LONG),
            portals("get_id", "getId", JAVA_LONG, JAVA_LONG),
            portals("me_attach", "meAttach", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_INT, JAVA_INT, JAVA_LONG),
            portals("me_attach_any", "meAttachAny", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_INT, JAVA_LONG),
            portals("me_insert", "meInsert", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG),
            portals("me_unlink", "meUnlink", JAVA_LONG),
            portals("md_attach", "mdAttach", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG),
            portals("md_bind", "mdBind", JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals("md_unlink", "mdUnlink", JAVA_LONG),
            portals("md_update", "mdUpdate", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals("eq_alloc", "eqAlloc", JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals("eq_free", "eqFree", JAVA_LONG),
            portals("eq_get", "eqGet", JAVA_LONG, JAVA_LONG),
            portals("eq_wait", "eqWait", JAVA_LONG, JAVA_LONG),
            portals("ac_entry", "acEntry", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            portals("put", "put", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG),
            portals("get", "get", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            portals33("init_33", "init", JAVA_LONG),
            portals33("fini_33", "fini"),
            portals33("ni_init_33", "niInit", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals33("ni_fini_33", "niFini", JAVA_LONG),
            portals33("ni_status_33", "niStatus", JAVA_LONG, JAVA_INT, JAVA_LONG),
            portals33("ni_dist_33", "niDist", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG),
            portals33("ni_handle_33", "niHandle", JAVA_LONG, JAVA_LONG),
            portals33("get_uid_33", "getUid", JAVA_LONG, JAVA_LONG),
            portals33("get_id_33", "getId", JAVA_LONG, JAVA_LONG),
            portals33("get_jid_33", "getJid", JAVA_LONG, JAVA_LONG),
            portals33("me_attach_33", "meAttach", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_INT, JAVA_INT, JAVA_LONG),
            portals33("me_attach_any_33", "meAttachAny", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG,
                    JAVA_INT, JAVA_LONG),
            portals33("me_insert_33", "meInsert", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT,
                    JAVA_INT, JAVA_LONG),
            portals33("me_unlink_33", "meUnlink", JAVA_LONG),
            portals33("md_attach_33", "mdAttach", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG),
            portals33("md_bind_33", "mdBind", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG),
            portals33("md_unlink_33", "mdUnlink", JAVA_LONG),
            portals33("md_update_33", "mdUpdate", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals33("eq_alloc_33", "eqAlloc", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals33("eq_free_33", "eqFree", JAVA_LONG),
            portals33("eq_get_33", "eqGet", JAVA_LONG, JAVA_LONG),
            portals33("eq_wait_33", "eqWait", JAVA_LONG, JAVA_LONG),
            portals33("eq_poll_33", "eqPoll", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            portals33("ac_entry_33", "acEntry", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            portals33("put_33", "put", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG,
                    JAVA_LONG, JAVA_LONG),
            portals33("put_region_33", "putRegion", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            portals33("get_33", "get", JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            portals33("get_region_33", "getRegion", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, JAVA_LONG, JAVA_LONG),
            portals33("get_put_33", "getPut", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG,
                    JAVA_LONG, JAVA_LONG),
            runtime("rt_rank", "rank"),
            runtime("rt_size", "size"),
            runtime("rt_process_id", "processId", JAVA_INT, JAVA_LONG),
            runtime("rt_barrier", "barrier"),
            runtime("at_exit", "atExit"));

    /** The C struct: the version and size words, then one function pointer per entry. */
    public static final StructLayout LAYOUT = layout();

    private ShimTable() {
    }

    private static Entry portals(String name, String method, MemoryLayout... arguments) {
        return new Entry(name, PortalsUpcalls.class, method,
                arguments.length == 0 ? NO_ARGS : FunctionDescriptor.of(JAVA_INT, arguments));
    }

    private static Entry portals33(String name, String method, MemoryLayout... arguments) {
        return new Entry(name, Portals33Upcalls.class, method,
                arguments.length == 0 ? NO_ARGS : FunctionDescriptor.of(JAVA_INT, arguments));
    }

    private static Entry runtime(String name, String method, MemoryLayout... arguments) {
        return new Entry(name, RuntimeUpcalls.class, method,
                arguments.length == 0 ? NO_ARGS : FunctionDescriptor.of(JAVA_INT, arguments));
    }

    /** Each member's name and C type (arguments as FFM layouts), in the struct's order: for the layout test. */
    public static Map<String, FunctionDescriptor> descriptors() {
        Map<String, FunctionDescriptor> descriptors = new LinkedHashMap<>();
        for (Entry e : ENTRIES) {
            descriptors.put(e.name(), e.descriptor());
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
            MethodHandle target = lookup.findStatic(e.owner(), e.method(), e.descriptor().toMethodType());
            MemorySegment stub = linker.upcallStub(target, e.descriptor(), Arena.global());
            table.set(ADDRESS, LAYOUT.byteOffset(groupElement(e.name())), stub);
        }
        return null;
    }
}
