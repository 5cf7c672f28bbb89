package org.portals3j.isotach.internal.noniso;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;

/**
 * N {@link NonisoLayer}s on a {@link LoopbackNetwork}, each behind a message handler that dispatches on the
 * frame kind as the engine does. Tests drive it step by step ({@link LoopbackNetwork#pump()}, per-host
 * {@code poll()}) or with {@link #settle()}.
 */
final class NonisoCluster implements AutoCloseable {
    /** A read response as the upcall saw it. */
    record ReadResponse(int host, int source, long value, int readSlot, long pulse) {
    }

    final LoopbackNetwork net;
    private final NonisoLayer[] layers;
    final List<ReadResponse> readResponses = new ArrayList<>();
    /** Frames the handlers saw whose kind is not the noniso module's. */
    int foreignFrames;
    private final Arena arena = Arena.ofConfined();

    NonisoCluster(int hosts, IsotachConfig config) {
        net = new LoopbackNetwork(hosts);
        layers = new NonisoLayer[hosts];
        for (int h = 0; h < hosts; h++) {
            int host = h;
            Transport t = net.endpoint(h);
            NonisoLayer layer = new NonisoLayer(h, hosts, config, t,
                    (source, value, readSlot, pulse) -> readResponses.add(
                            new ReadResponse(host, source, value, readSlot, pulse)));
            layers[h] = layer;
            t.start(new MessageHandler() {
                @Override
                public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength,
                                     Deposit deposit) {
                    if (headerLength > 0 && NonisoLayer.owns(header.get(ValueLayout.JAVA_BYTE, 0))) {
                        layer.onHeader(source, header, headerLength, payloadLength, deposit);
                    } else {
                        foreignFrames++;
                    }
                }

                @Override
                public void onDeposited(int source, Deposit deposit) {
                    layer.onDeposited(source, deposit);
                }

                @Override
                public void onSendComplete(long token, boolean delivered) {
                    layer.onSendComplete(token, delivered);
                }

                @Override
                public void onPeerFailure(int peer) {
                    layer.onPeerFailure(peer);
                }
            });
        }
    }

    static IsotachConfig.Builder config() {
        return IsotachConfig.builder().maxPayload(64).sendBufSize(64).nonisoSlotsPerPeer(8);
    }

    NonisoLayer host(int h) {
        return layers[h];
    }

    int hosts() {
        return layers.length;
    }

    /** Polls every host and pumps the network until nothing moves. */
    void settle() {
        for (int round = 0; round < 10_000; round++) {
            for (NonisoLayer l : layers) {
                l.poll();
            }
            if (net.pump() == 0) {
                return;
            }
        }
        throw new AssertionError("the cluster did not settle");
    }

    long counter(int h, String name) {
        Long v = layers[h].counters().get(name);
        if (v == null) {
            throw new AssertionError("no counter " + name);
        }
        return v;
    }

    /** A payload of {@code size} bytes: the first 8 are {@code tag}, the rest a pattern derived from it. */
    MemorySegment payload(long tag, int size) {
        MemorySegment s = arena.allocate(Math.max(1, size));
        for (int i = 0; i < size; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (tag * 31 + i));
        }
        if (size >= 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, tag);
        }
        return s;
    }

    /** The tag of a payload written by {@link #payload}, after checking the pattern of every byte. */
    static long tagOf(NonisoMessage m) {
        MemorySegment d = m.data();
        long tag = d.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        for (int i = 8; i < m.size(); i++) {
            if (d.get(ValueLayout.JAVA_BYTE, i) != (byte) (tag * 31 + i)) {
                throw new AssertionError("payload of tag " + tag + " corrupted at byte " + i);
            }
        }
        return tag;
    }

    @Override
    public void close() {
        for (int h = 0; h < layers.length; h++) {
            net.endpoint(h).close();
        }
        arena.close();
    }
}
