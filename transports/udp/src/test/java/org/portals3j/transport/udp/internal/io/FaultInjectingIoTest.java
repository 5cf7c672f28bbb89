package org.portals3j.transport.udp.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fault injector's delay line, with an injected clock and a socket that is a queue. */
class FaultInjectingIoTest {
    private static final long MS = 1_000_000L;
    private static final int SIZE = 64;

    /** A socket whose datagrams are what the test queued; records how long it was asked to wait. */
    private static final class QueueIo implements DatagramIo {
        final ArrayDeque<byte[]> arriving = new ArrayDeque<>();
        final List<Long> awaits = new ArrayList<>();

        void arrive(int id) {
            arriving.add(ByteBuffer.allocate(8).putInt(0, id).putInt(4, ~id).array());
        }

        @Override
        public boolean receive(ByteBuffer dst) {
            byte[] d = arriving.poll();
            if (d == null) {
                return false;
            }
            dst.clear();
            dst.put(0, d);
            dst.limit(d.length);
            return true;
        }

        @Override
        public void send(ByteBuffer src, int length, InetSocketAddress target) {
        }

        @Override
        public void await(long timeoutMillis) {
            awaits.add(timeoutMillis);
        }

        @Override
        public void wakeup() {
        }

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress(0);
        }

        @Override
        public int receiveBufferBytes() {
            return 1 << 20;
        }

        @Override
        public void close() {
        }
    }

    private final QueueIo socket = new QueueIo();
    private final long[] now = {1_000 * MS};
    private final ByteBuffer dst = ByteBuffer.allocateDirect(SIZE + 16);

    private FaultInjectingIo injector(long delay, long jitter, double late, long lateDelay, int line) {
        return new FaultInjectingIo(socket, SIZE, new FaultInjectingIo.Faults(0, 0, 0, 0, delay, jitter, late,
                lateDelay, line, 7), () -> now[0]);
    }

    /** Every datagram that is due now, in the order they come out. */
    private List<Integer> drain(FaultInjectingIo io) throws Exception {
        List<Integer> out = new ArrayList<>();
        while (io.receive(dst)) {
            assertThat(dst.getInt(4)).as("datagram intact").isEqualTo(~dst.getInt(0));
            out.add(dst.getInt(0));
        }
        return out;
    }

    private static Map<String, Long> counters(FaultInjectingIo io) {
        Map<String, Long> m = new HashMap<>();
        io.addCounters(m);
        return m;
    }

    @Test
    void shouldHoldEveryDatagramForTheDelayAndKeepTheirOrder() throws Exception {
        FaultInjectingIo io = injector(10 * MS, 0, 0, 0, 16);
        socket.arrive(1);
        socket.arrive(2);
        assertThat(drain(io)).isEmpty();
        now[0] += MS;
        socket.arrive(3);
        assertThat(drain(io)).isEmpty();
        now[0] += 9 * MS - 1;
        assertThat(drain(io)).as("1 ns before the first is due").isEmpty();
        now[0] += 1;
        assertThat(drain(io)).containsExactly(1, 2);
        now[0] += MS;
        assertThat(drain(io)).containsExactly(3);
        assertThat(io.delayLineSize()).isZero();
        assertThat(counters(io)).containsEntry("fault.delayed", 3L).containsEntry("fault.delayLineDrops", 0L);
    }

    @Test
    void shouldLetLaterDatagramsOvertakeALateOne() throws Exception {
        long delay = 10 * MS;
        long extra = 10 * MS;
        FaultInjectingIo io = injector(delay, 0, 0.25, extra, 4096);
        int count = 2000;
        long[] arrived = new long[count];
        long[] left = new long[count];
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count + 400; i++) {
            if (i < count) {
                arrived[i] = now[0];
                socket.arrive(i);
            }
            for (int id : drain(io)) {
                left[id] = now[0];
                order.add(id);
            }
            now[0] += 50_000; // one datagram every 50 us: 200 arrive within a delay
        }
        assertThat(order).hasSize(count).doesNotHaveDuplicates();
        int late = 0;
        for (int i = 0; i < count; i++) {
            long held = left[i] - arrived[i];
            // the test's clock moves in 50 us steps: a datagram leaves at the first step at or after it is due
            if (held >= delay + extra) {
                late++;
                assertThat(held).isLessThan(delay + extra + 50_000);
            } else {
                assertThat(held).isBetween(delay, delay + 50_000 - 1);
            }
        }
        assertThat(late).as("late datagrams").isBetween(count / 4 - 100, count / 4 + 100);
        assertThat(counters(io)).containsEntry("fault.late", (long) late);
        int overtaken = 0;
        for (int i = 1; i < count; i++) {
            if (order.get(i) < order.get(i - 1)) {
                overtaken++;
            }
        }
        assertThat(overtaken).as("datagrams that came out after a later one").isGreaterThan(count / 8);
    }

    @Test
    void shouldSpreadDelaysUniformlyOverTheJitterAndReorder() throws Exception {
        long delay = 10 * MS;
        long jitter = 5 * MS;
        FaultInjectingIo io = injector(delay, jitter, 0, 0, 4096);
        int count = 2000;
        long[] arrived = new long[count];
        long[] left = new long[count];
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count + 400; i++) {
            if (i < count) {
                arrived[i] = now[0];
                socket.arrive(i);
            }
            for (int id : drain(io)) {
                left[id] = now[0];
                order.add(id);
            }
            now[0] += 50_000;
        }
        assertThat(order).hasSize(count).doesNotHaveDuplicates();
        int shortHalf = 0;
        for (int i = 0; i < count; i++) {
            long held = left[i] - arrived[i];
            assertThat(held).isBetween(delay - jitter, delay + jitter + 50_000);
            if (held < delay) {
                shortHalf++;
            }
        }
        assertThat(shortHalf).as("delays below the mean").isBetween(count / 2 - 150, count / 2 + 150);
        assertThat(order).as("jitter reorders, as netem's does").isNotEqualTo(order.stream().sorted().toList());
    }

    @Test
    void shouldDropAndCountWhatArrivesAtAFullDelayLine() throws Exception {
        FaultInjectingIo io = injector(MS, 0, 0, 0, 4);
        for (int i = 0; i < 6; i++) {
            socket.arrive(i);
        }
        assertThat(drain(io)).isEmpty();
        assertThat(io.delayLineSize()).isEqualTo(4);
        assertThat(socket.arriving).as("the socket is drained").isEmpty();
        now[0] += MS;
        assertThat(drain(io)).containsExactly(0, 1, 2, 3);
        assertThat(counters(io)).containsEntry("fault.delayLineDrops", 2L);
        socket.arrive(6); // room again
        now[0] += MS;
        assertThat(drain(io)).isEmpty();
        now[0] += MS;
        assertThat(drain(io)).containsExactly(6);
    }

    @Test
    void shouldWaitNoLongerThanUntilTheNextDatagramIsDue() throws Exception {
        FaultInjectingIo io = injector(20 * MS, 0, 0, 0, 16);
        io.await(1_000);
        assertThat(socket.awaits).as("an empty line leaves the timeout alone").containsExactly(1_000L);
        socket.arrive(1);
        assertThat(drain(io)).isEmpty();
        now[0] += 5 * MS;
        io.await(1_000);
        assertThat(socket.awaits).as("woken when the datagram is due").containsExactly(1_000L, 15L);
        io.await(3);
        assertThat(socket.awaits).as("an earlier timeout stays").containsExactly(1_000L, 15L, 3L);
        now[0] += 15 * MS - 200_000;
        io.await(1_000); // 0.2 ms to go: parked, the selector only counts whole milliseconds
        assertThat(socket.awaits).hasSize(3);
        now[0] += 200_000;
        io.await(1_000);
        assertThat(socket.awaits).as("due: no wait at all").hasSize(3);
        assertThat(drain(io)).containsExactly(1);
    }

    @Test
    void withoutADelayDatagramsPassAtOnce() throws Exception {
        FaultInjectingIo io = new FaultInjectingIo(socket, SIZE, FaultInjectingIo.Faults.of(0, 0, 0, 0, 1),
                () -> now[0]);
        socket.arrive(1);
        socket.arrive(2);
        assertThat(drain(io)).containsExactly(1, 2);
    }
}
