package org.portals3j.transport.gm.internal.nativeaccess;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * A batch of {@code struct gmx_event} (gmx.h) that {@link GmPort#poll} fills, read in place: nothing is allocated
 * per event. Owned by the one thread that polls.
 */
public final class GmEvents implements AutoCloseable {
    /** {@code struct gmx_event}: 48 bytes, host byte order. */
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("context"),
            ValueLayout.JAVA_LONG.withName("buffer"),
            ValueLayout.JAVA_LONG.withName("length"),
            ValueLayout.JAVA_INT.withName("type"),
            ValueLayout.JAVA_INT.withName("status"),
            ValueLayout.JAVA_SHORT.withName("sender_node"),
            ValueLayout.JAVA_BYTE.withName("sender_port"),
            ValueLayout.JAVA_BYTE.withName("size"),
            ValueLayout.JAVA_BYTE.withName("priority"),
            MemoryLayout.sequenceLayout(11, ValueLayout.JAVA_BYTE).withName("reserved"));

    public static final int NO_EVENT = 0;
    public static final int RECV = 1;
    public static final int SENT = 2;
    public static final int PEER_FAILED = 3;

    static final long CONTEXT = offset("context");
    static final long BUFFER = offset("buffer");
    static final long LENGTH = offset("length");
    static final long TYPE = offset("type");
    static final long STATUS = offset("status");
    static final long SENDER_NODE = offset("sender_node");
    static final long SENDER_PORT = offset("sender_port");
    static final long SIZE = offset("size");
    static final long PRIORITY = offset("priority");

    private final Arena arena = Arena.ofShared();
    private final MemorySegment events;
    private final int capacity;

    public GmEvents(int capacity) {
        this.capacity = capacity;
        this.events = arena.allocate(LAYOUT, capacity);
    }

    private static long offset(String field) {
        return LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    MemorySegment segment() {
        return events;
    }

    public int capacity() {
        return capacity;
    }

    private long base(int i) {
        return i * LAYOUT.byteSize();
    }

    public long context(int i) {
        return events.get(ValueLayout.JAVA_LONG, base(i) + CONTEXT);
    }

    public long buffer(int i) {
        return events.get(ValueLayout.JAVA_LONG, base(i) + BUFFER);
    }

    public long length(int i) {
        return events.get(ValueLayout.JAVA_LONG, base(i) + LENGTH);
    }

    public int type(int i) {
        return events.get(ValueLayout.JAVA_INT, base(i) + TYPE);
    }

    public int status(int i) {
        return events.get(ValueLayout.JAVA_INT, base(i) + STATUS);
    }

    public int senderNode(int i) {
        return events.get(ValueLayout.JAVA_SHORT, base(i) + SENDER_NODE) & 0xffff;
    }

    public int senderPort(int i) {
        return events.get(ValueLayout.JAVA_BYTE, base(i) + SENDER_PORT) & 0xff;
    }

    public int size(int i) {
        return events.get(ValueLayout.JAVA_BYTE, base(i) + SIZE) & 0xff;
    }

    public int priority(int i) {
        return events.get(ValueLayout.JAVA_BYTE, base(i) + PRIORITY) & 0xff;
    }

    @Override
    public void close() {
        arena.close();
    }
}
