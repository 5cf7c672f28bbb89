package org.portals3j.transport.gm.internal.nativeaccess;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.StampedLock;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.gm.internal.protocol.Registrar;

/**
 * One open GM port of libgm (gmx_open ... gm_close). Every method may be called from any thread (the library takes
 * the port's lock); a read lock here keeps {@link #close} from freeing the port under a call, and after it every
 * call throws {@link IllegalStateException} (or, for {@link #wakeup} and {@link #dropSends}, does nothing). Sends,
 * gets and receive buffers take memory from {@link #dmaMalloc} or registered with {@link #register}.
 */
public final class GmPort implements Registrar {
    /** GM_LOW_PRIORITY, GM_HIGH_PRIORITY. */
    public static final int LOW_PRIORITY = 0;
    public static final int HIGH_PRIORITY = 1;
    /** GMX_STRICT: a send completes only when the receiver matched it into a buffer. */
    static final int STRICT = 0x1;
    /** What {@link #enterIfOpen} returns for a closed port (a StampedLock stamp is never 0). */
    private static final long CLOSED = 0L;

    private final Libgm lib;
    private final MemorySegment port;
    private final int portId;
    private final StampedLock lock = new StampedLock();
    private boolean closed; // guarded by lock

    private GmPort(Libgm lib, MemorySegment port, int portId) {
        this.lib = lib;
        this.port = port;
        this.portId = portId;
    }

    /** What gmx_open takes (gmx.h, struct gmx_port_options); zero fields take the library's defaults. */
    public record Options(String provider, @Nullable String address, int nodeId, int sendTokens, int receiveTokens,
                          int ackTimeoutMillis, int keepaliveMillis, boolean strict) {
    }

    /** Why gmx_open or another call failed: the gm_status_t and gmx_last_error(). */
    public static final class GmException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        GmException(String call, int status, String detail) {
            super(call + " failed: " + GmStatus.name(status) + (detail.isEmpty() ? "" : " (" + detail + ")"));
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** gm_init, then gmx_open of port {@code portId} (0..7) of unit 0. */
    public static GmPort open(Libgm lib, int portId, Options options) throws GmException {
        try (Arena arena = Arena.ofConfined()) {
            int status = (int) lib.init.invokeExact();
            if (status != GmStatus.SUCCESS) {
                throw new GmException("gm_init", status, lib.lastError());
            }
            MemorySegment o = arena.allocate(Libgm.PORT_OPTIONS);
            o.set(ADDRESS, field("provider"), arena.allocateFrom(options.provider()));
            String address = options.address();
            o.set(ADDRESS, field("address"), address == null ? MemorySegment.NULL : arena.allocateFrom(address));
            o.set(JAVA_INT, field("node_id"), options.nodeId());
            o.set(JAVA_INT, field("send_tokens"), options.sendTokens());
            o.set(JAVA_INT, field("receive_tokens"), options.receiveTokens());
            o.set(JAVA_INT, field("ack_timeout_ms"), options.ackTimeoutMillis());
            o.set(JAVA_INT, field("keepalive_ms"), options.keepaliveMillis());
            o.set(JAVA_INT, field("flags"), options.strict() ? STRICT : 0);
            MemorySegment out = arena.allocate(ADDRESS);
            status = (int) lib.open.invokeExact(out, portId, o);
            if (status != GmStatus.SUCCESS) {
                String why = lib.lastError();
                lib.finalizeLibrary.invokeExact();
                throw new GmException("gmx_open of port " + portId, status, why);
            }
            MemorySegment handle = out.get(ADDRESS, 0);
            status = (int) lib.allowRemoteMemoryAccess.invokeExact(handle); // peers read RMA payloads
            if (status != GmStatus.SUCCESS) {
                String why = lib.lastError();
                lib.close.invokeExact(handle);
                lib.finalizeLibrary.invokeExact();
                throw new GmException("gm_allow_remote_memory_access", status, why);
            }
            return new GmPort(lib, handle, portId);
        } catch (GmException e) {
            throw e;
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        }
    }

    private static long field(String name) {
        return Libgm.PORT_OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement(name));
    }

    public int portId() {
        return portId;
    }

    /** gmx_endpoint_name: this port's libfabric name. */
    public byte[] endpointName() throws GmException {
        long stamp = enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocate(1024);
            MemorySegment length = arena.allocate(JAVA_LONG);
            length.set(JAVA_LONG, 0, name.byteSize());
            int status = (int) lib.endpointName.invokeExact(port, name, length);
            if (status != GmStatus.SUCCESS) {
                throw new GmException("gmx_endpoint_name", status, lib.lastError());
            }
            return name.asSlice(0, length.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
        } catch (GmException e) {
            throw e;
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gmx_set_peer: (node, port) is reached at {@code name}. */
    public void setPeer(int nodeId, int peerPort, byte[] name, String hostName) throws GmException {
        long stamp = enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(Math.max(1, name.length));
            MemorySegment.copy(name, 0, n, JAVA_BYTE, 0, name.length);
            int status = (int) lib.setPeer.invokeExact(port, nodeId, peerPort, n, (long) name.length,
                    arena.allocateFrom(hostName));
            if (status != GmStatus.SUCCESS) {
                throw new GmException("gmx_set_peer of node " + nodeId + " port " + peerPort, status,
                        lib.lastError());
            }
        } catch (GmException e) {
            throw e;
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gm_dma_malloc, as a segment of {@code length} bytes; NULL when the library has no memory left. */
    public MemorySegment dmaMalloc(long length) {
        long stamp = enter();
        try {
            MemorySegment m = (MemorySegment) lib.dmaMalloc.invokeExact(port, length);
            return m.equals(MemorySegment.NULL) ? m : m.reinterpret(length);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gm_dma_free; nothing once closed (the port's memory went with it). */
    public void dmaFree(MemorySegment memory) {
        long stamp = enterIfOpen();
        if (stamp == CLOSED) {
            return;
        }
        try {
            lib.dmaFree.invokeExact(port, memory);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gmx_send: completion as a SENT event carrying {@code context}. */
    public void send(MemorySegment message, int size, long length, int priority, int node, int targetPort,
                     long context) {
        long stamp = enter();
        try {
            lib.send.invokeExact(port, message, size, length, priority, node, targetPort, context);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gmx_get from the target's (address, key) into {@code local}; completion as a SENT event. */
    public void get(long remoteAddress, long remoteKey, MemorySegment local, long length, int priority, int node,
                    int targetPort, long context) {
        long stamp = enter();
        try {
            lib.get.invokeExact(port, remoteAddress, remoteKey, local, length, priority, node, targetPort, context);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gmx_drop_sends: what is queued to (node, port) at {@code priority} completes with GM_SEND_DROPPED. */
    public void dropSends(int priority, int node, int targetPort, long context) {
        long stamp = enterIfOpen();
        if (stamp == CLOSED) {
            return;
        }
        try {
            lib.dropSends.invokeExact(port, priority, node, targetPort, context);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gmx_provide_receive_buffer: returned in a RECV event carrying {@code context}. */
    public void provideReceiveBuffer(MemorySegment buffer, int size, int priority, long context) {
        long stamp = enter();
        try {
            lib.provideReceiveBuffer.invokeExact(port, buffer, size, priority, context);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public long register(long address, long length) {
        long stamp = enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment key = arena.allocate(JAVA_LONG);
            int status = (int) lib.register.invokeExact(port, MemorySegment.ofAddress(address), length, key);
            if (status != GmStatus.SUCCESS) {
                throw new IllegalStateException("gmx_register of " + length + " bytes failed: "
                        + GmStatus.name(status) + " (" + lib.lastError() + ")");
            }
            return key.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public void deregister(long address, long length) {
        long stamp = enterIfOpen();
        if (stamp == CLOSED) {
            return;
        }
        try {
            int status = (int) lib.deregister.invokeExact(port, MemorySegment.ofAddress(address), length);
            if (status != GmStatus.SUCCESS) {
                throw new IllegalStateException("gm_deregister_memory of " + length + " bytes failed: "
                        + GmStatus.name(status) + " (" + lib.lastError() + ")");
            }
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * gmx_poll: waits up to {@code timeoutNanos} (0: not at all; negative: until an event or {@link #wakeup}) and
     * fills {@code events}; returns how many, or -1 once the port is unusable ({@link #lastError}).
     */
    public int poll(GmEvents events, long timeoutNanos) {
        long stamp = enter();
        try {
            return (int) lib.poll.invokeExact(port, events.segment(), events.capacity(), timeoutNanos);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** gmx_wakeup: a {@link #poll} waiting on this port returns now. Any thread; nothing once closed. */
    public void wakeup() {
        long stamp = enterIfOpen();
        if (stamp == CLOSED) {
            return;
        }
        try {
            lib.wakeup.invokeExact(port);
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** The calling thread's gmx_last_error(). */
    public String lastError() {
        return lib.lastError();
    }

    /** gm_close, then gm_finalize, once no other call is inside the library. Once. */
    public void close() {
        long stamp = lock.writeLock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            lib.close.invokeExact(port);
            lib.finalizeLibrary.invokeExact();
        } catch (Throwable t) {
            throw Libgm.rethrow(t);
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** Takes the read lock for a call into the library; throws (holding nothing) once the port is closed. */
    private long enter() {
        long stamp = lock.readLock();
        if (closed) {
            lock.unlockRead(stamp);
            throw new IllegalStateException("GM port " + portId + " is closed");
        }
        return stamp;
    }

    /** Takes the read lock for a call into the library, or returns {@link #CLOSED} (holding nothing) once closed. */
    private long enterIfOpen() {
        long stamp = lock.readLock();
        if (closed) {
            lock.unlockRead(stamp);
            return CLOSED;
        }
        return stamp;
    }
}
