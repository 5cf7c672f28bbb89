package org.portals3j.transport.internal;

/**
 * 64 bytes of fields placed before a subclass's own (HotSpot lays out superclass fields first), for fields that one
 * thread writes while another reads their neighbours: without padding each message costs a cache miss on both sides
 * (false sharing). Padding the Portals engine's event counter and the inmem drain flag cut the in-memory ping-pong
 * by about a tenth (A/B, 6 runs each).
 */
public abstract class CacheLinePadding {
    /**
     * Fills the 4 bytes after the object header: HotSpot places a subclass's {@code int} or {@code boolean} field in
     * that gap, in front of the padding, if nothing of this class takes it.
     */
    int gap;
    long p0;
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long p7;

    protected CacheLinePadding() {
    }
}
