package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.fabric.internal.NativeFabric;
import org.portals3j.fabric.internal.Structs;

/**
 * An open fabric ({@code fi_fabric}) for one {@link FabricInfo}; it keeps the provider's {@code fi_info} entry that
 * its domains and endpoints are opened with. Close it after its domains.
 */
public final class Fabric extends FabricResource {
    /** {@code FI_PROV_ATTR_ONLY}: {@code fi_getinfo} lists providers, as {@code fi_info -l} does. */
    private static final long PROV_ATTR_ONLY = 1L << 54;

    private final FabricInfo info;
    private final MemorySegment list;
    private final MemorySegment entry;

    private Fabric(FabricInfo info, MemorySegment handle, MemorySegment list, MemorySegment entry) {
        super("fabric", handle, List.of());
        this.info = info;
        this.list = list;
        this.entry = entry;
    }

    /** Whether libfabric.so.1 and the glue library loaded. */
    public static boolean isAvailable() {
        return NativeFabric.unavailableReason() == null;
    }

    /** Why the binding cannot load (one line saying what to install), or null if it can. */
    public static @Nullable String unavailableReason() {
        return NativeFabric.unavailableReason();
    }

    /**
     * The providers {@code fi_info -l} lists, in its order, each with the endpoint types of the entries it tops
     * ({@code fi_getinfo} without hints).
     */
    public static List<Provider> providers() {
        NativeFabric lib = NativeFabric.get();
        Map<String, String> versions = new LinkedHashMap<>();
        Map<String, Set<EndpointType>> types = new LinkedHashMap<>();
        forEachEntry(lib, PROV_ATTR_ONLY, e -> {
            int v = Structs.providerVersion(e);
            versions.putIfAbsent(Structs.providerName(e), (v >>> 16) + "." + (v & 0xffff));
        });
        forEachEntry(lib, 0, e -> {
            String stack = Structs.providerName(e);
            String top = stack.substring(stack.lastIndexOf(';') + 1);
            types.computeIfAbsent(top, k -> EnumSet.noneOf(EndpointType.class))
                    .add(EndpointType.of(Structs.endpointType(e)));
        });
        List<Provider> out = new ArrayList<>();
        versions.forEach((name, version) -> out.add(new Provider(name, version,
                types.getOrDefault(name, Set.of()))));
        return List.copyOf(out);
    }

    private interface EntryVisitor {
        void visit(MemorySegment entry);
    }

    private static void forEachEntry(NativeFabric lib, long flags, EntryVisitor visitor) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int rc = lib.getinfo(MemorySegment.NULL, MemorySegment.NULL, flags, MemorySegment.NULL, out);
            FabricException.check("fi_getinfo(no hints)", rc);
            MemorySegment list = out.get(ADDRESS, 0);
            try {
                for (MemorySegment e = list; !e.equals(MemorySegment.NULL); e = Structs.next(e)) {
                    visitor.visit(e);
                }
            } finally {
                lib.freeinfo(list);
            }
        }
    }

    /**
     * Opens the fabric of {@code info} ({@code fi_getinfo} again with its hints, then {@code fi_fabric}).
     *
     * @throws FabricException if libfabric fails, or if the provider no longer offers that entry
     */
    public static Fabric open(FabricInfo info) {
        NativeFabric lib = NativeFabric.get();
        MemorySegment list = FabricInfo.getinfo(lib, info.hints());
        MemorySegment entry = list;
        for (int i = 0; i < info.index() && !entry.equals(MemorySegment.NULL); i++) {
            entry = Structs.next(entry);
        }
        if (entry.equals(MemorySegment.NULL) || !Structs.providerName(entry).equals(info.provider())) {
            if (!list.equals(MemorySegment.NULL)) {
                lib.freeinfo(list);
            }
            throw new IllegalArgumentException("fi_getinfo no longer returns " + info + ": query again");
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int rc = lib.fabric(entry, out);
            if (rc < 0) {
                lib.freeinfo(list);
                throw FabricException.of("fi_fabric(" + info.provider() + ")", -rc);
            }
            return new Fabric(info, out.get(ADDRESS, 0), list, entry);
        }
    }

    /** The entry this fabric was opened for. */
    public FabricInfo info() {
        return info;
    }

    /** Opens a domain ({@code fi_domain}) of this fabric. */
    public Domain openDomain() {
        return Domain.open(this);
    }

    /** The {@code fi_info} entry, for {@code fi_domain} and {@code fi_endpoint}; checks that this is open. */
    MemorySegment entry() {
        handle();
        return entry;
    }

    @Override
    int closeNative(NativeFabric lib, MemorySegment h) {
        int rc = lib.close(h);
        lib.freeinfo(list);
        return rc;
    }
}
