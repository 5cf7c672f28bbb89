package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.HexFormat;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.gm.GmOptions;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.nativeaccess.GmStatus;
import org.portals3j.transport.gm.internal.nativeaccess.Libgm;
import org.portals3j.transport.gm.internal.protocol.SizeClasses;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * An endpoint's GM port set up: opened, its send slots, control buffers and receive buffers allocated and posted, its
 * name published; at start, every peer's name set in it. Runs before the endpoint is shared, or under its state lock.
 */
final class PortSetup {
    /** Published through the rendezvous: "gm port:hex libfabric name". */
    static final String KEY_ADDRESS = "gm.address";
    /** The size classes of data buffers; the largest is chosen to hold the eager threshold. */
    private static final int SMALL_SIZE = 9;
    private static final int MEDIUM_SIZE = 12;
    /** Control messages are only the wire header. */
    static final int CONTROL_SIZE = SizeClasses.minSizeForLength(WireHeader.LENGTH);

    private PortSetup() {
    }

    /** Control buffers each rank posts per peer, and has for sending to it: FINs for every slot, credits, a BYE. */
    static int controlBuffersPerPeer(GmOptions.Settings settings) {
        return settings.credits() * 4 + 4;
    }

    /**
     * Send slots per peer: application threads wait at {@link GmEndpoint#bound}, handler callbacks (which must never
     * wait) may go to this many, as loopback's delivery threads may; beyond it the peer counts as failed.
     */
    static int slotsPerPeer(GmOptions.Settings settings) {
        return Math.max(256, settings.credits() * 4);
    }

    /**
     * Opens a GM port (node id rank + 1), allocates and posts its buffers, and publishes its name.
     *
     * @throws TransportException when the library, the provider or DMA memory is missing (the message says what to
     *         do)
     */
    static GmEndpoint open(EndpointConfig config, GmOptions.Settings settings) throws TransportException {
        Libgm lib;
        try {
            lib = Libgm.load();
        } catch (IllegalStateException e) {
            throw new TransportException(String.valueOf(e.getMessage()));
        }
        @Nullable String unavailable = lib.providerUnavailable(settings.provider());
        if (unavailable != null) {
            throw new TransportException(unavailable);
        }
        long largest = WireHeader.LENGTH + GmEndpoint.MAX_HEADER + settings.eagerThreshold();
        int top = Math.max(MEDIUM_SIZE + 1, SizeClasses.minSizeForLength(largest));
        SizeClasses sizes = new SizeClasses(SMALL_SIZE, MEDIUM_SIZE, top);
        int n = config.job().size();
        int slots = slotsPerPeer(settings);
        int controls = controlBuffersPerPeer(settings);
        GmPort port = openPort(lib, config, settings, new GmPort.Options(providerName(settings.provider()),
                address(config, settings), config.rank() + 1, n * (slots + controls + 4),
                n * (sizes.count() * settings.credits() + controls), settings.ackTimeoutMillis(),
                settings.keepaliveMillis(), settings.strict()));
        GmEndpoint endpoint = new GmEndpoint(config, settings, port, sizes);
        PortCloser.opened(config.job().id());
        try {
            allocate(endpoint, slots, controls);
            byte[] name = port.endpointName();
            config.rendezvous().publish(config.rank(), KEY_ADDRESS,
                    port.portId() + ":" + HexFormat.of().formatHex(name));
        } catch (TransportException | RuntimeException e) {
            PortCloser.close(config.job().id(), port);
            throw e;
        } catch (GmPort.GmException e) {
            PortCloser.close(config.job().id(), port);
            throw new TransportException(String.valueOf(e.getMessage()));
        }
        return endpoint;
    }

    private static String providerName(String provider) {
        return provider;
    }

    private static @Nullable String address(EndpointConfig config, GmOptions.Settings settings) {
        if (!settings.address().isEmpty()) {
            return settings.address();
        }
        return config.rendezvous().localAddress().map(a -> a.getHostAddress()).orElse("127.0.0.1");
    }

    /** Tries the configured port id, then the others: ranks of one process each take a port of their own. */
    private static GmPort openPort(Libgm lib, EndpointConfig config, GmOptions.Settings settings,
                                   GmPort.Options options) throws TransportException {
        GmPort.@Nullable GmException last = null;
        for (int i = 0; i < 8; i++) {
            int id = (settings.port() + i) % 8;
            try {
                return GmPort.open(lib, id, options);
            } catch (GmPort.GmException e) {
                last = e;
                if (e.status() != GmStatus.BUSY) {
                    break;
                }
            }
        }
        throw new TransportException("rank " + config.rank() + ": cannot open a GM port over "
                + settings.provider() + ": " + (last == null ? "" : last.getMessage())
                + "; check that libfabric1 is installed and gm.provider and gm.address suit this host");
    }


    private static void allocate(GmEndpoint e, int slots, int controls) throws TransportException {
        long largest = e.dataSizes.largestLength();
        long controlLength = SizeClasses.maxLengthForSize(CONTROL_SIZE);
        for (int r = 0; r < e.size; r++) {
            SendSlot[] s = new SendSlot[slots];
            for (int i = 0; i < slots; i++) { // the slots beyond the bound get their buffer when first used
                s[i] = new SendSlot(i, i < e.bound ? dma(e, largest) : MemorySegment.NULL);
            }
            MemorySegment[] c = new MemorySegment[controls];
            for (int i = 0; i < controls; i++) {
                c[i] = dma(e, controlLength);
            }
            e.peers[r] = new Peer(r, e.settings.credits(), s, e.dataSizes.count() * e.settings.credits(), c);
        }
        for (int r = 0; r < e.size; r++) {
            for (int k = 0; k < e.dataSizes.count(); k++) {
                for (int i = 0; i < e.settings.credits(); i++) {
                    addReceiveBuffer(e, e.dataSizes.size(k), GmPort.LOW_PRIORITY);
                }
            }
            for (int i = 0; i < controls; i++) {
                addReceiveBuffer(e, CONTROL_SIZE, GmPort.HIGH_PRIORITY);
            }
        }
        for (int i = 0; i < e.receiveBuffers.count(); i++) {
            e.receiveBuffers.post(e.port, i);
        }
    }

    private static MemorySegment dma(GmEndpoint e, long length) throws TransportException {
        MemorySegment m = e.port.dmaMalloc(length);
        if (m.equals(MemorySegment.NULL)) {
            throw outOfDmaMemory(e);
        }
        return m;
    }

    private static void addReceiveBuffer(GmEndpoint e, int sizeClass, int priority) throws TransportException {
        if (!e.receiveBuffers.add(e.port, sizeClass, SizeClasses.maxLengthForSize(sizeClass), priority)) {
            throw outOfDmaMemory(e);
        }
    }

    private static TransportException outOfDmaMemory(GmEndpoint e) {
        return new TransportException("rank " + e.rank + ": gm_dma_malloc has no memory left for " + e.size
                + " peers; lower " + GmOptions.CREDITS + " or " + GmOptions.EAGER_THRESHOLD);
    }

    /**
     * Sets every peer's address in the port (the endpoint's state lock held, once).
     *
     * @throws IllegalStateException if a peer's address cannot be found or is malformed
     */
    static void setPeers(GmEndpoint e) {
        Duration timeout = Duration.ofMillis(e.settings.rendezvousTimeoutMillis());
        try {
            for (Peer p : e.peers) {
                String address = e.config.rendezvous().lookup(p.rank, KEY_ADDRESS, timeout);
                int colon = address.indexOf(':');
                try {
                    p.gmPort = Integer.parseInt(address.substring(0, Math.max(0, colon)));
                    byte[] name = HexFormat.of().parseHex(address.substring(colon + 1));
                    if (p.gmPort < 0 || p.gmPort > 7) {
                        throw new IllegalArgumentException("port " + p.gmPort);
                    }
                    e.port.setPeer(p.node, p.gmPort, name, "rank-" + p.rank);
                } catch (IllegalArgumentException | IndexOutOfBoundsException x) {
                    throw new TransportException("rank " + p.rank + " published a bad " + KEY_ADDRESS + " '"
                            + address + "'; do all ranks run the same transport?");
                }
            }
        } catch (TransportException x) {
            throw new IllegalStateException(x.getMessage(), x);
        } catch (GmPort.GmException x) {
            throw new IllegalStateException("rank " + e.rank + ": " + x.getMessage(), x);
        }
    }
}
