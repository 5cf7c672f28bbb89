package org.portals3j.transport.gm.internal.nativeaccess;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * libgm's functions (gm.h and gmx.h), bound once per JVM: the only place that knows their signatures. The library
 * is found by {@link LibraryLocator}; {@link #load} says in one line what to install when it or libfabric is
 * missing. {@code unsigned} is {@code JAVA_INT}, {@code gm_size_t} (unsigned long) and {@code uint64_t} are
 * {@code JAVA_LONG}, {@code gm_status_t} is {@code JAVA_INT}.
 */
public final class Libgm {
    /** {@code struct gmx_port_options} (gmx.h): 40 bytes. */
    static final StructLayout PORT_OPTIONS = MemoryLayout.structLayout(
            ADDRESS.withName("provider"),
            ADDRESS.withName("address"),
            JAVA_INT.withName("node_id"),
            JAVA_INT.withName("send_tokens"),
            JAVA_INT.withName("receive_tokens"),
            JAVA_INT.withName("ack_timeout_ms"),
            JAVA_INT.withName("keepalive_ms"),
            JAVA_INT.withName("flags"));

    private static final Object LOCK = new Object();
    private static final String NO_BACKTRACE = "IPATH_NO_BACKTRACE";
    private static @Nullable Libgm loaded; // guarded by LOCK
    private static @Nullable String failure; // guarded by LOCK

    final MethodHandle init;
    final MethodHandle finalizeLibrary;
    final MethodHandle open;
    final MethodHandle close;
    final MethodHandle lastError;
    final MethodHandle providerAvailable;
    final MethodHandle endpointName;
    final MethodHandle setPeer;
    final MethodHandle send;
    final MethodHandle get;
    final MethodHandle dropSends;
    final MethodHandle provideReceiveBuffer;
    final MethodHandle register;
    final MethodHandle deregister;
    final MethodHandle dmaMalloc;
    final MethodHandle dmaFree;
    final MethodHandle poll;
    final MethodHandle wakeup;
    final MethodHandle minSizeForLength;
    final MethodHandle allowRemoteMemoryAccess;

    private Libgm(SymbolLookup lib) {
        init = bind(lib, "gm_init", FunctionDescriptor.of(JAVA_INT));
        finalizeLibrary = bind(lib, "gm_finalize", FunctionDescriptor.ofVoid());
        open = bind(lib, "gmx_open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        close = bind(lib, "gm_close", FunctionDescriptor.ofVoid(ADDRESS));
        lastError = bind(lib, "gmx_last_error", FunctionDescriptor.of(ADDRESS));
        providerAvailable = bind(lib, "gmx_provider_available",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        endpointName = bind(lib, "gmx_endpoint_name", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        setPeer = bind(lib, "gmx_set_peer",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        send = bind(lib, "gmx_send", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_INT,
                JAVA_INT, JAVA_INT, JAVA_LONG));
        get = bind(lib, "gmx_get", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        dropSends = bind(lib, "gmx_drop_sends",
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        provideReceiveBuffer = bind(lib, "gmx_provide_receive_buffer",
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_LONG));
        register = bind(lib, "gmx_register", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        deregister = bind(lib, "gm_deregister_memory", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        dmaMalloc = bind(lib, "gm_dma_malloc", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG));
        dmaFree = bind(lib, "gm_dma_free", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        poll = bind(lib, "gmx_poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG));
        wakeup = bind(lib, "gmx_wakeup", FunctionDescriptor.ofVoid(ADDRESS));
        minSizeForLength = bind(lib, "gm_min_size_for_length", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        allowRemoteMemoryAccess = bind(lib, "gm_allow_remote_memory_access", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    private static MethodHandle bind(SymbolLookup lib, String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalStateException(
                "libgm.so has no " + name + ": it is older than this transport; rebuild native-shim/libgm"));
        return Linker.nativeLinker().downcallHandle(symbol, descriptor);
    }

    /**
     * The library, loaded on first use.
     *
     * @throws IllegalStateException when it cannot be loaded: one line saying what to install or set
     */
    public static Libgm load() {
        synchronized (LOCK) {
            if (loaded != null) {
                return loaded;
            }
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            try {
                Path path = LibraryLocator.locate(System.getProperties(), System.getenv(),
                        Libgm.class.getClassLoader());
                keepTheJvmsSignalHandlers();
                Libgm lib0 = fromLibrary(path, p -> SymbolLookup.libraryLookup(p, Arena.global()));
                loaded = lib0;
                return lib0;
            } catch (IllegalStateException e) {
                failure = e.getMessage();
                throw e;
            } catch (IllegalCallerException e) {
                failure = "native access is disabled: run java with --enable-native-access=ALL-UNNAMED (or the "
                        + "module org.portals3j.transport.gm)";
                throw new IllegalStateException(failure, e);
            }
        }
    }

    /**
     * Opens the library at {@code path} with {@code dlopen} (in production {@link SymbolLookup#libraryLookup}) and
     * binds its functions; nothing is cached.
     *
     * @throws IllegalStateException when it cannot be opened or lacks a function: one line saying what to install
     */
    static Libgm fromLibrary(Path path, Function<Path, SymbolLookup> dlopen) {
        SymbolLookup lib;
        try {
            lib = dlopen.apply(path);
        } catch (IllegalArgumentException e) { // dlopen failed: usually libfabric.so.1 is missing
            String why = String.valueOf(e.getMessage()).replace('\n', ' ');
            throw new IllegalStateException(why.toLowerCase(Locale.ROOT).contains("libfabric")
                    ? "libfabric.so.1 not found: apt-get install libfabric1 (libfabric-dev to build libgm)"
                    : "cannot load " + path + " (" + why + "); install libfabric1 and rebuild libgm", e);
        }
        return new Libgm(lib);
    }

    /**
     * Sets IPATH_NO_BACKTRACE=1 in the process environment unless it is set. libfabric links libinfinipath (for its
     * psm provider), whose constructor otherwise installs a SIGSEGV handler that prints a backtrace and exits: it
     * replaces the JVM's, which takes SIGSEGV for its implicit null checks and safepoint polls, and the JVM dies at
     * random soon after. Done once, before the library is loaded, under {@link #LOCK}.
     */
    private static void keepTheJvmsSignalHandlers() {
        if (System.getenv(NO_BACKTRACE) != null) {
            return;
        }
        Linker linker = Linker.nativeLinker();
        MemorySegment setenv = linker.defaultLookup().find("setenv").orElseThrow(() -> new IllegalStateException(
                "the C library has no setenv; start java with " + NO_BACKTRACE + "=1 in the environment"));
        MethodHandle call = linker.downcallHandle(setenv, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            int ignored = (int) call.invokeExact(arena.allocateFrom(NO_BACKTRACE), arena.allocateFrom("1"), 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Whether libfabric {@code provider} ("tcp", "shm", "udp", "net") can open an endpoint here, as
     * {@code gmx_provider_available} (fi_info -l style): null if it can, else why, in one line.
     */
    public @Nullable String providerUnavailable(String provider) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment why = arena.allocate(256);
            int ok = (int) providerAvailable.invokeExact(arena.allocateFrom(provider), why, why.byteSize());
            if (ok != 0) {
                return null;
            }
            String reason = why.getString(0).replace('\n', ' ');
            if (reason.startsWith("unknown provider")) { // installing nothing helps: a name gm does not know
                return "gm.provider=" + provider + " is not a provider gm runs on (" + reason + ")";
            }
            return "libfabric provider " + provider + " is not usable here" + (reason.isEmpty() ? "" : " (" + reason
                    + ")") + ": install libfabric1 (apt-get install libfabric1) or choose another gm.provider";
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** gm_min_size_for_length, for the check that the Java size classes agree with the library's. */
    public int minSizeForLength(long length) {
        try {
            // not invokeExact: the nullness checker crashes on a signature-polymorphic call with one long argument
            return (int) minSizeForLength.invokeWithArguments(length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The calling thread's gmx_last_error(). */
    String lastError() {
        try {
            MemorySegment s = (MemorySegment) lastError.invokeExact();
            return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A downcall threw: only errors of the JVM itself get here. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
