package org.portals3j.fabric.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The native-access boundary of the binding: every {@link MethodHandle} of libfabric.so.1 and of the glue library
 * libfabric-java.so, and typed methods over them. Nothing else in the binding touches a handle. Methods return
 * libfabric's code unchanged (0 or a count, or a negative FI_* error); the public classes check them.
 *
 * <p>The glue library is loaded from the path in system property {@value #GLUE_PROPERTY}, else extracted from the
 * jar's {@value #GLUE_RESOURCE} into a temporary file. If either library is missing, {@link #unavailableReason()}
 * says what to install.
 *
 * <p>Loading libfabric.so.1 replaces the process's handlers of SIGINT, SIGILL, SIGABRT, SIGBUS, SIGSEGV and SIGTERM:
 * Debian's build links the psm provider's libpsm_infinipath, whose libinfinipath.so.4 installs a backtrace handler
 * from its constructor. The JVM takes SIGSEGV for its own purposes (implicit null checks, safepoints), so with that
 * handler in place the JVM dies at random ("terminated with signal 11 ... Backtrace:"), and SIGINT and SIGTERM no
 * longer run shutdown hooks. The loader therefore saves the six handlers before the first {@code dlopen} and puts
 * the JVM's back after it. The shm provider does the same in {@code fi_endpoint} (SIGINT, SIGBUS, SIGSEGV, SIGTERM:
 * a handler that unlinks its shared memory files, then re-raises), so every control call that opens or enables an
 * object runs inside a {@link SignalGuard}; the cost is that shm cannot clean its files up if the JVM crashes
 * (a later endpoint open removes them: see the package documentation of {@code org.portals3j.fabric}).
 */
public final class NativeFabric {
    /** System property: the path of libfabric-java.so to load instead of the jar's copy. */
    public static final String GLUE_PROPERTY = "portals3j.fabric.glue";
    /** Where the jar carries the glue library. */
    public static final String GLUE_RESOURCE = "/native/linux-x86_64/libfabric-java.so";
    /** {@code FI_VERSION(1, 17)}: the API version the binding asks for. */
    public static final int API_VERSION = (1 << 16) | 17;

    /** SIGINT, SIGILL, SIGABRT, SIGBUS, SIGSEGV, SIGTERM: the handlers libinfinipath replaces (Linux numbers). */
    static final int[] JVM_SIGNALS = {2, 4, 6, 7, 11, 15};

    private static final ReentrantLock SIGNAL_LOCK = new ReentrantLock();
    private static final MethodType BOXED_INT_TO_ADDRESS = MethodType.methodType(MemorySegment.class, Integer.class);

    private static final @Nullable NativeFabric INSTANCE;
    private static final @Nullable String UNAVAILABLE;

    static {
        NativeFabric lib = null;
        String reason = null;
        try {
            lib = new NativeFabric();
        } catch (IllegalArgumentException | IOException e) {
            reason = e.getMessage();
        } catch (IllegalCallerException e) {
            reason = "native access is not enabled for the binding: run java with "
                    + "--enable-native-access=org.portals3j.fabric (module path) or ALL-UNNAMED (class path) ("
                    + e.getMessage() + ")";
        }
        INSTANCE = lib;
        UNAVAILABLE = reason;
    }

    private final MethodHandle sigaction;
    private final MethodHandle getinfo;
    private final MethodHandle freeinfo;
    private final MethodHandle dupinfo;
    private final MethodHandle fabric;
    private final MethodHandle strerror;
    private final MethodHandle strdup;
    private final MethodHandle domain;
    private final MethodHandle endpoint;
    private final MethodHandle avOpen;
    private final MethodHandle avInsert;
    private final MethodHandle cqOpen;
    private final MethodHandle epBind;
    private final MethodHandle enable;
    private final MethodHandle setname;
    private final MethodHandle getname;
    private final MethodHandle mrReg;
    private final MethodHandle mrKey;
    private final MethodHandle mrDesc;
    private final MethodHandle close;
    private final MethodHandle cqWaitFd;
    private final MethodHandle tsend;
    private final MethodHandle tsenddata;
    private final MethodHandle trecv;
    private final MethodHandle cqRead;
    private final MethodHandle cqReaderr;
    private final MethodHandle read;
    private final MethodHandle writeDelivered;
    private final MethodHandle errnoName;

    private NativeFabric() throws IOException {
        Linker linker = Linker.nativeLinker();
        sigaction = bind(linker, linker.defaultLookup(), "sigaction", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
        SymbolLookup fabricLib;
        SymbolLookup glue;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment saved = a.allocate(Structs.SIGACTION, JVM_SIGNALS.length);
            sigactions(sigaction, saved, false);
            try {
                fabricLib = load("libfabric.so.1", "libfabric.so.1 is not installed: install libfabric 1.x "
                        + "(Debian/Ubuntu: apt-get install libfabric1 libfabric-bin)");
                Path gluePath = gluePath();
                glue = load(gluePath.toString(), "cannot load the glue library " + gluePath);
            } finally {
                sigactions(sigaction, saved, true);
            }
        }
        getinfo = bind(linker, fabricLib, "fi_getinfo", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS,
                ADDRESS);
        freeinfo = linker.downcallHandle(find(fabricLib, "fi_freeinfo"), FunctionDescriptor.ofVoid(ADDRESS));
        dupinfo = bind(linker, fabricLib, "fi_dupinfo", ADDRESS, ADDRESS);
        fabric = bind(linker, fabricLib, "fi_fabric", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        // (Integer) rather than (int): the nullness checker crashes on an invokeExact whose only argument is a
        // primitive (Checker Framework 4.4.0); both are error-path calls, where boxing costs nothing that matters
        strerror = bind(linker, fabricLib, "fi_strerror", ADDRESS, JAVA_INT).asType(BOXED_INT_TO_ADDRESS);
        strdup = bind(linker, linker.defaultLookup(), "strdup", ADDRESS, ADDRESS);
        domain = bind(linker, glue, "fj_domain", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        endpoint = bind(linker, glue, "fj_endpoint", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        avOpen = bind(linker, glue, "fj_av_open", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        avInsert = bind(linker, glue, "fj_av_insert", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
        cqOpen = bind(linker, glue, "fj_cq_open", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        epBind = bind(linker, glue, "fj_ep_bind", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG);
        enable = bind(linker, glue, "fj_enable", JAVA_INT, ADDRESS);
        setname = bind(linker, glue, "fj_setname", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG);
        getname = bind(linker, glue, "fj_getname", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        mrReg = bind(linker, glue, "fj_mr_reg", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                ADDRESS);
        mrKey = bind(linker, glue, "fj_mr_key", JAVA_LONG, ADDRESS);
        mrDesc = bind(linker, glue, "fj_mr_desc", ADDRESS, ADDRESS);
        close = bind(linker, glue, "fj_close", JAVA_INT, ADDRESS);
        cqWaitFd = bind(linker, glue, "fj_cq_wait_fd", JAVA_INT, ADDRESS);
        tsend = bind(linker, glue, "fj_tsend", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_LONG, JAVA_LONG);
        tsenddata = bind(linker, glue, "fj_tsenddata", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_LONG, JAVA_LONG, JAVA_LONG);
        trecv = bind(linker, glue, "fj_trecv", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_LONG, JAVA_LONG, JAVA_LONG);
        cqRead = bind(linker, glue, "fj_cq_read", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG);
        cqReaderr = bind(linker, glue, "fj_cq_readerr", JAVA_LONG, ADDRESS, ADDRESS);
        read = bind(linker, glue, "fj_read", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG,
                JAVA_LONG, JAVA_LONG);
        writeDelivered = bind(linker, glue, "fj_write_delivered", JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS,
                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        errnoName = bind(linker, glue, "fj_errno_name", ADDRESS, JAVA_INT).asType(BOXED_INT_TO_ADDRESS);
    }

    /**
     * Saves the handlers of {@link #JVM_SIGNALS} at creation and puts them back at close. Guards of all threads take
     * one lock, so that one thread's restore never puts back handlers another thread's call installed.
     */
    private final class SignalGuard implements AutoCloseable {
        private final Arena arena;
        private final MemorySegment saved;

        SignalGuard() {
            SIGNAL_LOCK.lock();
            arena = Arena.ofConfined();
            saved = arena.allocate(Structs.SIGACTION, JVM_SIGNALS.length);
            sigactions(sigaction, saved, false);
        }

        @Override
        public void close() {
            try {
                sigactions(sigaction, saved, true);
            } finally {
                arena.close();
                SIGNAL_LOCK.unlock();
            }
        }
    }

    /** Saves ({@code restore} false) or restores the handlers of {@link #JVM_SIGNALS} in {@code saved}. */
    private static void sigactions(MethodHandle sigaction, MemorySegment saved, boolean restore) {
        long size = Structs.SIGACTION.byteSize();
        for (int i = 0; i < JVM_SIGNALS.length; i++) {
            MemorySegment slot = saved.asSlice(i * size, size);
            int rc;
            try {
                rc = restore ? (int) sigaction.invokeExact(JVM_SIGNALS[i], slot, MemorySegment.NULL)
                        : (int) sigaction.invokeExact(JVM_SIGNALS[i], MemorySegment.NULL, slot);
            } catch (Throwable t) {
                throw fail(t);
            }
            if (rc != 0) {
                throw new IllegalStateException("sigaction(" + JVM_SIGNALS[i] + ") failed");
            }
        }
    }

    /** The loaded binding; throws {@link IllegalStateException} with {@link #unavailableReason()} if none. */
    public static NativeFabric get() {
        NativeFabric lib = INSTANCE;
        if (lib == null) {
            throw new IllegalStateException("libfabric binding unavailable: " + UNAVAILABLE);
        }
        return lib;
    }

    /** Why the binding cannot load (one line saying what to install or pass), or null if it loaded. */
    public static @Nullable String unavailableReason() {
        return UNAVAILABLE;
    }

    private static SymbolLookup load(String library, String whatToDo) {
        try {
            return SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(whatToDo + " (" + e.getMessage() + ")", e);
        }
    }

    private static Path gluePath() throws IOException {
        String configured = System.getProperty(GLUE_PROPERTY);
        if (configured != null) {
            Path p = Path.of(configured);
            if (!Files.isReadable(p)) {
                throw new IOException(GLUE_PROPERTY + "=" + configured + " is not a readable file: build the "
                        + "libfabric-java module (mvn -pl transports/fabric package) or unset the property");
            }
            return p;
        }
        try (InputStream in = NativeFabric.class.getResourceAsStream(GLUE_RESOURCE)) {
            if (in == null) {
                throw new IOException("the jar has no " + GLUE_RESOURCE + " (built for linux-x86_64 only): set "
                        + GLUE_PROPERTY + " to a libfabric-java.so built from src/main/c/fabric_java.c");
            }
            Path tmp = Files.createTempFile("libfabric-java", ".so");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        }
    }

    private static MemorySegment find(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalArgumentException(
                name + " not found: libfabric-java.so and libfabric.so.1 do not match (rebuild the glue library)"));
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lookup, String name, MemoryLayout result,
            MemoryLayout... args) {
        return linker.downcallHandle(find(lookup, name), FunctionDescriptor.of(result, args));
    }

    private static RuntimeException fail(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /** {@code fi_getinfo(API_VERSION, node, service, flags, hints, out)}. */
    public int getinfo(MemorySegment node, MemorySegment service, long flags, MemorySegment hints,
            MemorySegment out) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) getinfo.invokeExact(API_VERSION, node, service, flags, hints, out);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_freeinfo(info)}. */
    public void freeinfo(MemorySegment info) {
        try {
            freeinfo.invokeExact(info);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** Hints for {@code fi_getinfo}: {@code fi_dupinfo(NULL)} filled by {@link Structs#fillHints}. */
    public MemorySegment hints(int endpointType, long caps, int mrMode, String provider) {
        MemorySegment h;
        try {
            h = (MemorySegment) dupinfo.invokeExact(MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
        if (h.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("fi_dupinfo(NULL) returned NULL");
        }
        Structs.fillHints(this, h, endpointType, caps, mrMode, provider);
        return h;
    }

    MemorySegment strdup(String s) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment copy = (MemorySegment) strdup.invokeExact(a.allocateFrom(s));
            if (copy.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("strdup returned NULL");
            }
            return copy;
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_fabric(info->fabric_attr, out, NULL)}. */
    public int fabric(MemorySegment info, MemorySegment out) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) fabric.invokeExact(Structs.fabricAttr(info), out, MemorySegment.NULL);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_strerror(err)}. */
    public String strerror(int err) {
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(Integer.valueOf(err));
            return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** The FI_* name of a positive error number, or {@code "FI_E?<n>"} for one libfabric does not name. */
    public String errnoName(int err) {
        try {
            MemorySegment s = (MemorySegment) errnoName.invokeExact(Integer.valueOf(err));
            return s.equals(MemorySegment.NULL) ? "FI_E?" + err
                    : s.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.US_ASCII);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public int domain(MemorySegment fab, MemorySegment info, MemorySegment out) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) domain.invokeExact(fab, info, out);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public int endpoint(MemorySegment dom, MemorySegment info, MemorySegment out) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) endpoint.invokeExact(dom, info, out);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_av_open} with an attribute block of {@code type} and {@code count}. */
    public int avOpen(MemorySegment dom, int type, long count, MemorySegment out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(Structs.FI_AV_ATTR);
            Structs.fillAvAttr(attr, type, count);
            try (SignalGuard g = new SignalGuard()) {
                return (int) avOpen.invokeExact(dom, attr, out);
            }
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public int avInsert(MemorySegment av, MemorySegment addr, long count, MemorySegment fiAddr) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) avInsert.invokeExact(av, addr, count, fiAddr);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_cq_open} of a {@code FI_CQ_FORMAT_TAGGED} queue. */
    public int cqOpen(MemorySegment dom, long size, int waitObject, MemorySegment out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(Structs.FI_CQ_ATTR);
            Structs.fillCqAttr(attr, size, waitObject);
            try (SignalGuard g = new SignalGuard()) {
                return (int) cqOpen.invokeExact(dom, attr, out);
            }
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public int epBind(MemorySegment ep, MemorySegment fid, long flags) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) epBind.invokeExact(ep, fid, flags);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public int enable(MemorySegment ep) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) enable.invokeExact(ep);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_setname(fid, name, strlen(name) + 1)}: {@code name} as a NUL-terminated string, before enabling. */
    public int setname(MemorySegment fid, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocateFrom(name);
            return (int) setname.invokeExact(fid, addr, addr.byteSize());
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_getname(fid, addr, len)}; {@code len} is a size_t in and out. */
    public int getname(MemorySegment fid, MemorySegment addr, MemorySegment len) {
        try {
            return (int) getname.invokeExact(fid, addr, len);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public int mrReg(MemorySegment dom, MemorySegment buf, long access, long requestedKey, MemorySegment out) {
        try {
            return (int) mrReg.invokeExact(dom, buf, buf.byteSize(), access, requestedKey, out);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public long mrKey(MemorySegment mr) {
        try {
            return (long) mrKey.invokeExact(mr);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public MemorySegment mrDesc(MemorySegment mr) {
        try {
            return (MemorySegment) mrDesc.invokeExact(mr);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_close(fid)}. */
    public int close(MemorySegment fid) {
        try (SignalGuard g = new SignalGuard()) {
            return (int) close.invokeExact(fid);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_control(FI_GETWAIT)} on a CQ opened with {@code FI_WAIT_FD}: the fd, or a negative error. */
    public int cqWaitFd(MemorySegment cq) {
        try {
            return (int) cqWaitFd.invokeExact(cq);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public long tsend(MemorySegment ep, MemorySegment buf, MemorySegment desc, long dest, long tag, long context) {
        try {
            return (long) tsend.invokeExact(ep, buf, buf.byteSize(), desc, dest, tag, context);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public long tsenddata(MemorySegment ep, MemorySegment buf, MemorySegment desc, long data, long dest, long tag,
            long context) {
        try {
            return (long) tsenddata.invokeExact(ep, buf, buf.byteSize(), desc, data, dest, tag, context);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public long trecv(MemorySegment ep, MemorySegment buf, MemorySegment desc, long src, long tag, long ignore,
            long context) {
        try {
            return (long) trecv.invokeExact(ep, buf, buf.byteSize(), desc, src, tag, ignore, context);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_cq_read(cq, entries, count)} into an array of {@code fi_cq_tagged_entry}. */
    public long cqRead(MemorySegment cq, MemorySegment entries, long count) {
        try {
            return (long) cqRead.invokeExact(cq, entries, count);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public long cqReaderr(MemorySegment cq, MemorySegment entry) {
        try {
            return (long) cqReaderr.invokeExact(cq, entry);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    public long read(MemorySegment ep, MemorySegment buf, MemorySegment desc, long src, long addr, long key,
            long context) {
        try {
            return (long) read.invokeExact(ep, buf, buf.byteSize(), desc, src, addr, key, context);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    /** {@code fi_writemsg} with {@code FI_COMPLETION | FI_DELIVERY_COMPLETE}. */
    public long writeDelivered(MemorySegment ep, MemorySegment buf, MemorySegment desc, long dest, long addr,
            long key, long context) {
        try {
            return (long) writeDelivered.invokeExact(ep, buf, buf.byteSize(), desc, dest, addr, key, context);
        } catch (Throwable t) {
            throw fail(t);
        }
    }
}
