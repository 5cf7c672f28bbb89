package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.isotach.internal.noniso.NonisoCluster.ReadResponse;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.MessageHandler;

/**
 * SMM read responses as noniso frames (Isotach report §3.4.3, pp. 14-18; §7.4.5, pp. 69-72; App. B.1.1, pp. 104-107;
 * I-091, I-140 as far as noniso goes).
 */
class NonisoReadResponseTest {

    /** I-091: value, lvar slot and pulse arrive unchanged, through the upcall on poll, from the right source. */
    @Test
    void i091_readResponseRoundTrip() {
        try (NonisoCluster c = new NonisoCluster(3, NonisoCluster.config().build())) {
            assertThat(c.host(2).sendReadResponse(0, Long.MIN_VALUE, 17, 255)).isZero();
            assertThat(c.host(1).sendReadResponse(0, 42, Integer.MAX_VALUE, Long.MAX_VALUE)).isZero();
            c.net.pump();
            assertThat(c.readResponses).as("only on the host thread's poll").isEmpty();
            c.host(0).poll();
            assertThat(c.readResponses).containsExactlyInAnyOrder(
                    new ReadResponse(0, 2, Long.MIN_VALUE, 17, 255),
                    new ReadResponse(0, 1, 42, Integer.MAX_VALUE, Long.MAX_VALUE));
            assertThat(c.counter(0, "readResponse.received")).isEqualTo(2);
            assertThat(c.counter(1, "readResponse.sent")).isEqualTo(1);
            assertThat(c.host(0).receive(new NonisoMessage())).isEqualTo(NonisoLayer.NO_MESSAGE);
        }
    }

    /**
     * Read responses go through flow control (Isotach report §8.3.4, pp. 73-76): they take ring credits, wait behind
     * data in FIFO order, fail only when send_buf is full, and their slots come back without any receive() call.
     */
    @Test
    void readResponsesUseFlowControlAndGiveTheirSlotsBackOnPoll() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(3).sendBufSize(2).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoLayer s = c.host(1);
            // Two go out at once (two credits) and leave their cells; two wait for credit and fill send_buf.
            for (int i = 0; i < 4; i++) {
                assertThat(s.sendReadResponse(0, i, i, i)).isZero();
            }
            assertThat(s.outstanding(0)).isEqualTo(2);
            assertThat(s.unapproved()).isEqualTo(2);
            assertThat(s.sendReadResponse(0, 9, 9, 9)).as("send_buf full").isEqualTo(NonisoLayer.FAILURE);
            c.settle();
            c.settle();
            List<Long> values = new ArrayList<>();
            for (ReadResponse r : c.readResponses) {
                values.add(r.value());
            }
            assertThat(values).containsExactly(0L, 1L, 2L, 3L);
            assertThat(s.sendBufferEmpty()).isTrue();
            assertThat(c.counter(0, "credit.explicit")).as("freed at poll, credit returned").isPositive();
        }
    }

    /**
     * sendReadResponse refuses this host itself (a local read is answered locally, Isotach report §7.4.5, pp. 69-72)
     * and bad targets.
     */
    @Test
    void readResponseTargetsAreChecked() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            assertThat(c.host(0).sendReadResponse(0, 1, 1, 1)).isEqualTo(NonisoLayer.FAILURE);
            assertThat(c.host(0).sendReadResponse(2, 1, 1, 1)).isEqualTo(NonisoLayer.FAILURE);
            assertThat(c.host(0).sendReadResponse(-1, 1, 1, 1)).isEqualTo(NonisoLayer.FAILURE);
            assertThat(c.net.headersSentBy(0)).isEmpty();
        }
    }

    /** An upcall may call back into the layer (send, receive): the nested poll returns at once, nothing is lost. */
    @Test
    void upcallsMayReenterTheLayer() {
        LoopbackNetwork net = new LoopbackNetwork(2);
        IsotachConfig cfg = NonisoCluster.config().build();
        List<Long> seen = new ArrayList<>();
        NonisoLayer[] layer = new NonisoLayer[2];
        layer[0] = new NonisoLayer(0, 2, cfg, net.endpoint(0), (src, v, l, p) -> {
            seen.add(v);
            // Answer with a message of our own from inside the upcall.
            assertThat(layer[0].send(1, MemorySegment.ofArray(new byte[] {(byte) v}), 1)).isZero();
        });
        layer[1] = new NonisoLayer(1, 2, cfg, net.endpoint(1), (src, v, l, p) -> { });
        for (int h = 0; h < 2; h++) {
            NonisoLayer me = layer[h];
            net.endpoint(h).start(new MessageHandler() {
                @Override
                public void onHeader(int source, MemorySegment header, int headerLength,
                                     long payloadLength, Deposit deposit) {
                    me.onHeader(source, header, headerLength, payloadLength, deposit);
                }

                @Override
                public void onDeposited(int source, Deposit deposit) {
                    me.onDeposited(source, deposit);
                }

                @Override
                public void onSendComplete(long token, boolean delivered) {
                    me.onSendComplete(token, delivered);
                }

                @Override
                public void onPeerFailure(int peer) {
                    me.onPeerFailure(peer);
                }
            });
        }
        try {
            layer[1].sendReadResponse(0, 7, 0, 0);
            layer[1].sendReadResponse(0, 8, 0, 0);
            net.pump();
            layer[0].poll();
            assertThat(seen).containsExactly(7L, 8L);
            net.pump();
            NonisoMessage m = new NonisoMessage();
            assertThat(layer[1].receive(m)).isZero();
            assertThat(m.toByteArray()).containsExactly(7);
            assertThat(layer[1].receive(m)).isZero();
            assertThat(m.toByteArray()).containsExactly(8);
        } finally {
        }
    }
}
