package org.portals3j.transport.udp.internal.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.udp.internal.nativeaccess.Libc;

/**
 * The socket as {@link ChannelIo} has it, IPv4 only, through direct system calls ({@link Libc}): a non-blocking
 * UDP socket, {@code poll} on it and an {@code eventfd} to wait and wake. Its calls allocate nothing once each buffer
 * and each target has been seen (their native addresses are kept, a bounded number of them).
 */
public final class SocketIo implements DatagramIo {
    private static final Cleaner CLEANER = Cleaner.create();
    /** Each thread's errno: a thread's capturing call writes its own. */
    private static final ThreadLocal<@Nullable MemorySegment> ERRNO = new ThreadLocal<>();
    private static final int SOCKADDR_IN = 16;
    /** Most buffers and most targets whose native addresses are kept; past that the tables start again. */
    static final int CACHED = 4096;

    private final int fd;
    private final int wake;
    private final InetSocketAddress local;
    private final int receiveBuffer;
    /** Two {@code struct pollfd}s (the socket, the eventfd), used by the thread that awaits. */
    private final MemorySegment pollFds;
    /** Eight bytes holding 1, written to the eventfd by {@link #wakeup}. */
    private final MemorySegment one;
    /** Where {@link #await} drains the eventfd. */
    private final MemorySegment drained;
    private final Object tablesLock = new Object();
    private volatile AddressTable buffers = new AddressTable(16);
    private volatile AddressTable targets = new AddressTable(16);
    private volatile boolean closed;

    private SocketIo(int fd, int wake, InetSocketAddress local, int receiveBuffer) {
        this.fd = fd;
        this.wake = wake;
        this.local = local;
        this.receiveBuffer = receiveBuffer;
        Arena arena = Arena.ofAuto();
        this.pollFds = arena.allocate(16, 8);
        pollFds.set(ValueLayout.JAVA_INT, 0, fd);
        pollFds.set(ValueLayout.JAVA_SHORT, 4, Libc.POLLIN);
        pollFds.set(ValueLayout.JAVA_INT, 8, wake);
        pollFds.set(ValueLayout.JAVA_SHORT, 12, Libc.POLLIN);
        this.one = arena.allocate(8, 8);
        one.set(ValueLayout.JAVA_LONG, 0, 1L);
        this.drained = arena.allocate(8, 8);
        // close() leaves the descriptor numbers on dead sockets (a send racing it must not reach a reused number);
        // they are released with this object
        CLEANER.register(this, () -> {
            MemorySegment e = errno();
            Libc.close(e, fd);
            Libc.close(e, wake);
        });
    }

    /** This thread's errno segment. */
    private static MemorySegment errno() {
        MemorySegment e = ERRNO.get();
        if (e == null) {
            e = Libc.errnoSegment(Arena.ofAuto());
            ERRNO.set(e);
        }
        return e;
    }

    /** Null if {@code address} can be bound with this class here; otherwise why not, in a few words. */
    public static @Nullable String unusableFor(InetSocketAddress address) {
        String why = Libc.unavailable();
        if (why != null) {
            return why;
        }
        if (address.isUnresolved() || !(address.getAddress() instanceof Inet4Address)) {
            return "not an IPv4 address: " + address;
        }
        return null;
    }

    /**
     * Binds {@code address} (IPv4: see {@link #unusableFor}).
     *
     * @throws IOException as the JDK reports it ({@link BindException} with the system's words when the bind fails)
     */
    public static SocketIo bind(InetSocketAddress address) throws IOException {
        String why = unusableFor(address);
        if (why != null) {
            throw new IllegalArgumentException("the native socket cannot bind " + address + ": " + why);
        }
        MemorySegment e = errno();
        int fd = Libc.socket(e, Libc.AF_INET, Libc.SOCK_DGRAM | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0);
        if (fd < 0) {
            throw new SocketException(Libc.describe(Libc.errno(e)));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(8, 8);
            value.set(ValueLayout.JAVA_INT, 0, ChannelIo.SOCKET_BUFFER);
            if (Libc.setsockopt(e, fd, Libc.SOL_SOCKET, Libc.SO_RCVBUF, value.address(), 4) < 0
                    || Libc.setsockopt(e, fd, Libc.SOL_SOCKET, Libc.SO_SNDBUF, value.address(), 4) < 0) {
                throw new SocketException(Libc.describe(Libc.errno(e)));
            }
            MemorySegment sockaddr = arena.allocate(SOCKADDR_IN, 8);
            write(sockaddr, address);
            if (Libc.bind(e, fd, sockaddr.address(), SOCKADDR_IN) < 0) {
                throw new BindException(Libc.describe(Libc.errno(e)));
            }
            value.set(ValueLayout.JAVA_INT, 4, SOCKADDR_IN);
            if (Libc.getsockname(e, fd, sockaddr.address(), value.address() + 4) < 0) {
                throw new SocketException(Libc.describe(Libc.errno(e)));
            }
            byte[] ip = new byte[4];
            MemorySegment.copy(sockaddr, ValueLayout.JAVA_BYTE, 4, ip, 0, 4);
            int port = Short.toUnsignedInt(Short.reverseBytes(sockaddr.get(ValueLayout.JAVA_SHORT, 2)));
            InetSocketAddress bound = new InetSocketAddress(InetAddress.getByAddress(ip), port);
            value.set(ValueLayout.JAVA_INT, 4, 4);
            if (Libc.getsockopt(e, fd, Libc.SOL_SOCKET, Libc.SO_RCVBUF, value.address(), value.address() + 4) < 0) {
                throw new SocketException(Libc.describe(Libc.errno(e)));
            }
            // Linux reports twice what it grants (it counts its own bookkeeping in); half is the data room.
            int granted = value.get(ValueLayout.JAVA_INT, 0) / 2;
            int wake = Libc.eventfd(e, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
            if (wake < 0) {
                throw new SocketException("eventfd: " + Libc.describe(Libc.errno(e)));
            }
            return new SocketIo(fd, wake, bound, granted);
        } catch (IOException | RuntimeException | Error x) {
            Libc.close(e, fd);
            throw x;
        }
    }

    /** Writes {@code address} (IPv4, resolved) as a {@code struct sockaddr_in} at the start of {@code to}. */
    private static void write(MemorySegment to, InetSocketAddress address) {
        to.fill((byte) 0);
        to.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_INET);
        to.set(ValueLayout.JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) address.getPort());
        MemorySegment.copy(address.getAddress().getAddress(), 0, to, ValueLayout.JAVA_BYTE, 4, 4);
    }

    /** The receive path's own buffers: their native addresses are known, nothing is looked up. */
    @Override
    public boolean receive(PooledBuffer dst) throws IOException {
        return receiveAt(dst.buffer, dst.segment.address());
    }

    @Override
    public boolean receive(ByteBuffer dst) throws IOException {
        if (!dst.isDirect()) {
            return receiveHeap(dst);
        }
        return receiveAt(dst, bufferAddress(dst));
    }

    private boolean receiveAt(ByteBuffer dst, long address) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        MemorySegment e = errno();
        while (true) {
            // a datagram longer than the buffer is cut to it, as DatagramChannel.receive does
            long n = Libc.recv(e, fd, address, dst.capacity(), Libc.MSG_DONTWAIT);
            if (n >= 0) {
                dst.limit((int) n).position(0);
                return true;
            }
            int errno = Libc.errno(e);
            if (errno == Libc.EAGAIN) {
                return false;
            }
            if (errno != Libc.EINTR) {
                throw failure("recv", errno);
            }
        }
    }

    private boolean receiveHeap(ByteBuffer dst) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bounce = arena.allocate(Math.max(1, dst.capacity()));
            ByteBuffer view = bounce.asByteBuffer();
            if (!receiveAt(view, bounce.address())) {
                return false;
            }
            dst.clear();
            dst.put(0, view, 0, view.limit());
            dst.limit(view.limit());
            return true;
        }
    }

    /**
     * Sends as a non-blocking {@code DatagramChannel} does: a full socket buffer ({@code EAGAIN}, {@code ENOBUFS})
     * drops the datagram silently, as the channel's send of 0 bytes does.
     */
    @Override
    public void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        src.limit(length).position(0);
        long to = targetAddress(target);
        if (!src.isDirect()) {
            sendHeap(src, length, to);
            return;
        }
        sendAt(src, bufferAddress(src), length, to);
    }

    private void sendAt(ByteBuffer src, long address, int length, long to) throws IOException {
        MemorySegment e = errno();
        while (true) {
            long n = Libc.sendto(e, fd, address, length, 0, to, SOCKADDR_IN);
            if (n >= 0) {
                src.position(length);
                return;
            }
            int errno = Libc.errno(e);
            if (errno == Libc.EAGAIN || errno == Libc.ENOBUFS) {
                return;
            }
            if (errno != Libc.EINTR) {
                throw failure("sendto", errno);
            }
        }
    }

    private void sendHeap(ByteBuffer src, int length, long to) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bounce = arena.allocate(Math.max(1, length));
            MemorySegment.copy(MemorySegment.ofBuffer(src.duplicate().position(0)), 0, bounce, 0, length);
            sendAt(src, bounce.address(), length, to);
        }
    }

    private IOException failure(String call, int errno) {
        if (closed) {
            return new ClosedChannelException();
        }
        return new IOException(call + ": " + Libc.describe(errno));
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        if (closed) {
            return;
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis));
        MemorySegment e = errno();
        pollFds.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
        pollFds.set(ValueLayout.JAVA_SHORT, 14, (short) 0);
        while (Libc.poll(e, pollFds.address(), 2, timeout) < 0) {
            int errno = Libc.errno(e);
            if (errno != Libc.EINTR) {
                throw failure("poll", errno);
            }
        }
        if ((pollFds.get(ValueLayout.JAVA_SHORT, 14) & Libc.POLLIN) != 0) {
            Libc.read(wake, drained.address(), 8); // the count back to 0: the next await waits again
        }
    }

    @Override
    public void wakeup() {
        if (!closed) {
            Libc.write(wake, one.address(), 8);
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public int receiveBufferBytes() {
        return receiveBuffer;
    }

    /**
     * Releases the port at once: the socket's descriptor is pointed at a socket that can neither send nor receive,
     * so that a call racing this one fails rather than use whatever file would get the number next.
     */
    @Override
    public void close() {
        synchronized (tablesLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        MemorySegment e = errno();
        int dead = Libc.socket(e, Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0);
        if (dead >= 0) {
            Libc.dup2(dead, fd);
            Libc.dup2(dead, wake);
            Libc.close(e, dead);
        }
    }

    // ==== native addresses, by identity ===========================================================

    private long bufferAddress(ByteBuffer b) {
        long a = buffers.get(b);
        if (a != 0) {
            return a;
        }
        synchronized (tablesLock) {
            a = buffers.get(b);
            if (a != 0) {
                return a;
            }
            a = MemorySegment.ofBuffer(b.duplicate().clear()).address();
            buffers = buffers.with(b, a, null);
            return a;
        }
    }

    private long targetAddress(InetSocketAddress target) throws IOException {
        long a = targets.get(target);
        if (a != 0) {
            return a;
        }
        if (target.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        if (!(target.getAddress() instanceof Inet4Address)) {
            throw new IOException("cannot send to " + target + " from the IPv4 socket " + local);
        }
        synchronized (tablesLock) {
            a = targets.get(target);
            if (a != 0) {
                return a;
            }
            MemorySegment sockaddr = Arena.ofAuto().allocate(SOCKADDR_IN, 8);
            write(sockaddr, target);
            targets = targets.with(target, sockaddr.address(), sockaddr);
            return sockaddr.address();
        }
    }

    /**
     * An immutable open-addressing table from objects (by identity) to native addresses, replaced whole on each
     * addition (additions are rare: one per buffer and per peer); it keeps the memory it points into reachable.
     */
    private static final class AddressTable {
        private final @Nullable Object[] keys;
        private final long[] values;
        private final @Nullable Object[] keep;
        private final int size;

        AddressTable(int capacity) {
            this.keys = new Object[capacity];
            this.values = new long[capacity];
            this.keep = new Object[capacity];
            this.size = 0;
        }

        private AddressTable(@Nullable Object[] keys, long[] values, @Nullable Object[] keep, int size) {
            this.keys = keys;
            this.values = values;
            this.keep = keep;
            this.size = size;
        }

        /** The address of {@code key}, or 0. */
        long get(Object key) {
            int mask = keys.length - 1;
            for (int i = System.identityHashCode(key) & mask; ; i = (i + 1) & mask) {
                Object k = keys[i];
                if (k == key) {
                    return values[i];
                }
                if (k == null) {
                    return 0;
                }
            }
        }

        /** A table with {@code key} added (a new, empty one first when {@link #CACHED} are held). */
        AddressTable with(Object key, long value, @Nullable Object keepAlive) {
            int count = size >= CACHED ? 0 : size;
            int capacity = Integer.highestOneBit(Math.max(16, (count + 1) * 4) - 1) << 1;
            @Nullable Object[] k = new Object[capacity];
            long[] v = new long[capacity];
            @Nullable Object[] kept = new Object[capacity];
            AddressTable t = new AddressTable(k, v, kept, count + 1);
            if (count > 0) {
                for (int i = 0; i < keys.length; i++) {
                    Object old = keys[i];
                    if (old != null) {
                        t.put(old, values[i], keep[i]);
                    }
                }
            }
            t.put(key, value, keepAlive);
            return t;
        }

        private void put(Object key, long value, @Nullable Object keepAlive) {
            int mask = keys.length - 1;
            int i = System.identityHashCode(key) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = key;
            values[i] = value;
            keep[i] = keepAlive;
        }
    }
}
