package org.portals3j.isotach.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.TmPlacement;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

/**
 * I-134: open_net's reset (Isotach report §5.2, pp. 35-36): host 0 sends exactly one reset bs-marker, carrying the
 * reset bit only (0x80, not the report's 0x83; isotach package documentation), and no other host sends one. The token
 * manager runs as a rank of its own, so that every host's bs-markers cross the transport, where the test sees them.
 */
class OpenNetResetTest {
    private static final int SUCCESS = 0;
    private static final int RESET_BIT = 0x80;

    @Test
    void openNetSendsExactlyOneResetFromHostZeroWithTheResetBitOnly_I134() throws Exception {
        Job job = Job.local(3);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        IsotachConfig config = IsotachConfig.builder().tmPlacement(TmPlacement.OWN_PROCESS).build();
        List<MarkerRecorder> hosts = List.of(new MarkerRecorder(endpoints.get(0)),
                new MarkerRecorder(endpoints.get(1)));
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            List<IsotachEngine> engines = new ArrayList<>();
            for (MarkerRecorder host : hosts) {
                engines.add(new IsotachEngine(host, config));
            }
            Future<Long> tokenManager = threads.submit(() -> IsotachEngine.runTokenManager(endpoints.get(2), config,
                    Duration.ofMinutes(5)));
            List<Future<Integer>> opened = new ArrayList<>();
            for (IsotachEngine engine : engines) {
                opened.add(threads.submit(() -> engine.openNet(EnumSet.of(Interface.ISO_MBM), Duration.ofMinutes(2))));
            }
            for (Future<Integer> o : opened) {
                assertThat(o.get(3, TimeUnit.MINUTES)).as("open_net").isEqualTo(SUCCESS);
            }
            // open_net returned only once the reset came back, so it has been sent; markers after it carry no reset.
            assertThat(hosts.get(0).resetMarkers()).as("host 0's bs-markers with the reset bit")
                    .containsExactly(RESET_BIT);
            assertThat(hosts.get(1).resetMarkers()).as("host 1's bs-markers with the reset bit").isEmpty();
            List<Future<?>> closing = new ArrayList<>();
            for (IsotachEngine engine : engines) {
                closing.add(threads.submit(() -> {
                    while (engine.tryCloseNet() != SUCCESS) {
                        Thread.onSpinWait();
                    }
                }));
            }
            for (Future<?> c : closing) {
                c.get(3, TimeUnit.MINUTES);
            }
            assertThat(tokenManager.get(3, TimeUnit.MINUTES)).as("pulses issued; every host left").isPositive();
        } finally {
            threads.shutdownNow();
            endpoints.forEach(Transport::close);
        }
    }

    /** A host's endpoint that records the bits of every bs-marker it sends, and passes everything on. */
    private static final class MarkerRecorder implements Transport, Polling {
        private final Transport inner;
        private final Polling polling;
        private final List<Integer> markerBits = new ArrayList<>();

        MarkerRecorder(Transport inner) {
            this.inner = inner;
            this.polling = Polling.of(inner);
        }

        @Override
        public boolean poll() {
            return polling.poll();
        }

        @Override
        public void pollingStopped() {
            polling.pollingStopped();
        }

        synchronized List<Integer> resetMarkers() {
            return markerBits.stream().filter(b -> (b & RESET_BIT) != 0).toList();
        }

        @Override
        public void send(int peer, MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                         long payloadLength, long token) {
            if (headerLength > 0 && Frame.kind(header) == Frame.BARRIER_SIGNAL_MARKER) {
                synchronized (this) {
                    markerBits.add(Frame.u8(header, Frame.O_BYTE2));
                }
            }
            inner.send(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
        }

        @Override
        public String provider() {
            return inner.provider();
        }

        @Override
        public int rank() {
            return inner.rank();
        }

        @Override
        public int size() {
            return inner.size();
        }

        @Override
        public Set<TransportCapability> capabilities() {
            return inner.capabilities();
        }

        @Override
        public int maxHeaderLength() {
            return inner.maxHeaderLength();
        }

        @Override
        public long maxPayloadLength() {
            return inner.maxPayloadLength();
        }

        @Override
        public void start(MessageHandler handler) {
            inner.start(handler);
        }

        @Override
        public boolean isPeerAlive(int peer) {
            return inner.isPeerAlive(peer);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
