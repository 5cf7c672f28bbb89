package org.portals3j.transport.udp.internal.nativeaccess;

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
import java.lang.invoke.VarHandle;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The udp transport's one native boundary: the Linux libc calls the udp socket ({@code SocketIo}) makes, bound
 * through FFM; nothing else touches the {@link Linker}. Pointers are passed as raw addresses ({@code long}, the same
 * register as a pointer on the 64-bit Linux ABIs this is enabled on), so that a call allocates nothing.
 */
public final class Libc {
    public static final int AF_INET = 2;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int AF_UNIX = 1;
    public static final int SOCK_STREAM = 1;
    public static final int SOL_SOCKET = 1;
    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    public static final int MSG_DONTWAIT = 0x40;
    public static final short POLLIN = 1;
    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENOBUFS = 105;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int EACCES = 13;

    /** Why the calls cannot be used here, or null when they can. */
    private static final @Nullable String UNAVAILABLE = check();

    private Libc() {
    }

    /** Null when the native socket can be used; otherwise why not (native access off, not 64-bit Linux, ...). */
    public static @Nullable String unavailable() {
        return UNAVAILABLE;
    }

    private static @Nullable String check() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.equals("linux") || !(arch.equals("amd64") || arch.equals("aarch64"))) {
            return "not 64-bit Linux (" + os + ", " + arch + ")";
        }
        if (!Libc.class.getModule().isNativeAccessEnabled()) {
            return "native access is not enabled for " + Libc.class.getModule();
        }
        try {
            return H.SOCKET == null ? "no socket()" : null;
        } catch (LinkageError | RuntimeException e) {
            return "libc cannot be bound (" + e + ")";
        }
    }

    /** The handles, bound on first use (only once {@link #check} has found native access enabled). */
    private static final class H {
        static final Linker LINKER = Linker.nativeLinker();
        static final StructLayout STATE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");
        static final Linker.Option CRITICAL = Linker.Option.critical(false);
        static final MethodHandle SOCKET = bind("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                ERRNO_OPTION);
        static final MethodHandle SETSOCKOPT = bind("setsockopt",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT), ERRNO_OPTION);
        static final MethodHandle GETSOCKOPT = bind("getsockopt",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO_OPTION);
        static final MethodHandle BIND = bind("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT),
                ERRNO_OPTION);
        static final MethodHandle GETSOCKNAME = bind("getsockname",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO_OPTION);
        static final MethodHandle RECV = bind("recv",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT), ERRNO_OPTION, CRITICAL);
        static final MethodHandle SENDTO = bind("sendto",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT),
                ERRNO_OPTION, CRITICAL);
        static final MethodHandle POLL = bind("poll", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT),
                ERRNO_OPTION);
        static final MethodHandle EVENTFD = bind("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT),
                ERRNO_OPTION);
        static final MethodHandle READ = bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
        static final MethodHandle WRITE = bind("write",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
        // close and strerror capture errno too: a lone int argument of invokeExact crashes the nullness checker
        static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPTION);
        static final MethodHandle DUP2 = bind("dup2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        static final MethodHandle STRERROR = bind("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT), ERRNO_OPTION);

        private H() {
        }

        private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
            SymbolLookup libc = LINKER.defaultLookup();
            MemorySegment symbol = libc.find(name).orElseThrow(() -> new IllegalStateException("libc has no " + name));
            return LINKER.downcallHandle(symbol, descriptor, options);
        }
    }

    /** A segment for one thread's errno (the calls that capture it write it there). */
    public static MemorySegment errnoSegment(Arena arena) {
        return arena.allocate(H.STATE);
    }

    /** The errno the last capturing call on {@code state} left. */
    public static int errno(MemorySegment state) {
        return (int) H.ERRNO.get(state, 0L);
    }

    /** What the C library calls {@code errno}, as the JDK's messages say it ("Address already in use"). */
    public static String describe(int errno) {
        try {
            MemorySegment s = (MemorySegment) H.STRERROR.invokeExact(Arena.ofAuto().allocate(H.STATE), errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int socket(MemorySegment errno, int domain, int type, int protocol) {
        try {
            return (int) H.SOCKET.invokeExact(errno, domain, type, protocol);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int setsockopt(MemorySegment errno, int fd, int level, int name, long value, int length) {
        try {
            return (int) H.SETSOCKOPT.invokeExact(errno, fd, level, name, value, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int getsockopt(MemorySegment errno, int fd, int level, int name, long value, long length) {
        try {
            return (int) H.GETSOCKOPT.invokeExact(errno, fd, level, name, value, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int bind(MemorySegment errno, int fd, long address, int length) {
        try {
            return (int) H.BIND.invokeExact(errno, fd, address, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int getsockname(MemorySegment errno, int fd, long address, long length) {
        try {
            return (int) H.GETSOCKNAME.invokeExact(errno, fd, address, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long recv(MemorySegment errno, int fd, long buffer, long length, int flags) {
        try {
            return (long) H.RECV.invokeExact(errno, fd, buffer, length, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long sendto(MemorySegment errno, int fd, long buffer, long length, int flags, long to, int toLength) {
        try {
            return (long) H.SENDTO.invokeExact(errno, fd, buffer, length, flags, to, toLength);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int poll(MemorySegment errno, long fds, long count, int timeoutMillis) {
        try {
            return (int) H.POLL.invokeExact(errno, fds, count, timeoutMillis);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int eventfd(MemorySegment errno, int initial, int flags) {
        try {
            return (int) H.EVENTFD.invokeExact(errno, initial, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long read(int fd, long buffer, long length) {
        try {
            return (long) H.READ.invokeExact(fd, buffer, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long write(int fd, long buffer, long length) {
        try {
            return (long) H.WRITE.invokeExact(fd, buffer, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int close(MemorySegment errno, int fd) {
        try {
            return (int) H.CLOSE.invokeExact(errno, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int dup2(int from, int to) {
        try {
            return (int) H.DUP2.invokeExact(from, to);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
