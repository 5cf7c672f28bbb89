package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;

/**
 * Randomized matching, checked against MPI's order rules: three senders (seven on eight ranks) send mixed sizes
 * across the eager limit
 * (set low, with little credit, so that eager messages also fall back to rendezvous), in every nonblocking mode;
 * the receiver receives with exact and wildcard sources and tags, one at a time and in windows of receives posted
 * together. Every message must arrive once, intact, and no receive may take a message from a sender while an
 * earlier message of that sender that it also matches is still unreceived (MPI-3.1 section 3.5).
 */
class MatchingOrderTest {
    private static final int SENDERS = 3;
    private static final int MESSAGES = 120;
    private static final int TAGS = 3;
    private static final int EAGER = 1024;

    /** One planned message: its sender, sequence number, tag and length in ints (at least 2: source, sequence). */
    private record Message(int source, int seq, int tag, int ints) {
    }

    private static List<Message> plan(int source, long seed) {
        Random random = new Random(seed * 31 + source);
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            int ints = switch (random.nextInt(4)) {
                case 0 -> 2 + random.nextInt(8);
                case 1 -> EAGER / 4 - 2 + random.nextInt(4);
                case 2 -> 2 + random.nextInt(EAGER / 4);
                default -> EAGER / 4 + random.nextInt(3 * EAGER);
            };
            out.add(new Message(source, i, random.nextInt(TAGS), ints));
        }
        return out;
    }

    @Test
    void receivesNeverOvertakeAndEveryMessageArrivesOnceIntact() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            run("inmem", seed);
        }
    }

    @Test
    void sevenSendersOnEightRanksKeepTheOrderToo() throws Exception {
        run("inmem", 4, 7);
    }

    /** One randomized run of three senders on {@code transport} (also run on udp by {@link UdpTest}). */
    static void run(String transport, long seed) throws Exception {
        run(transport, seed, SENDERS);
    }

    /** One randomized run of {@code senders} senders and a receiver on {@code transport}. */
    static void run(String transport, long seed, int senders) throws Exception {
        System.setProperty("portals3j.mpi.eagerLimit", Integer.toString(EAGER));
        System.setProperty("portals3j.mpi.creditBytes", Integer.toString(4 * EAGER));
        try {
            MpiJob.run(transport, senders + 1, rank -> {
                MPI.Init(new String[0]);
                if (rank == 0) {
                    receive(seed, senders);
                } else {
                    send(rank, seed);
                }
                MPI.Finalize();
            });
        } finally {
            System.clearProperty("portals3j.mpi.eagerLimit");
            System.clearProperty("portals3j.mpi.creditBytes");
        }
    }

    private static void send(int rank, long seed) throws Exception {
        Random random = new Random(seed + 1000 * rank);
        List<Request> requests = new ArrayList<>();
        for (Message m : plan(rank, seed)) {
            IntBuffer data = random.nextBoolean() ? MPI.newIntBuffer(m.ints()) : IntBuffer.allocate(m.ints());
            data.put(0, m.source()).put(1, m.seq());
            for (int i = 2; i < m.ints(); i++) {
                data.put(i, m.seq() * 7 + i);
            }
            requests.add(switch (random.nextInt(3)) {
                case 0 -> MPI.COMM_WORLD.iSend(data, m.ints(), MPI.INT, 0, m.tag());
                case 1 -> MPI.COMM_WORLD.isSend(data, m.ints(), MPI.INT, 0, m.tag());
                default -> MPI.COMM_WORLD.irSend(data, m.ints(), MPI.INT, 0, m.tag());
            });
        }
        Request.waitAll(requests.toArray(new Request[0]));
    }

    private static void receive(long seed, int senders) throws Exception {
        Random random = new Random(seed);
        List<List<Message>> sent = new ArrayList<>();
        sent.add(List.of());
        for (int s = 1; s <= senders; s++) {
            sent.add(plan(s, seed));
        }
        int capacity = 4 * EAGER;
        boolean[][] received = new boolean[senders + 1][MESSAGES];
        List<Message> remaining = new ArrayList<>();
        for (int s = 1; s <= senders; s++) {
            remaining.addAll(sent.get(s));
        }
        int left = remaining.size();
        while (left > 0) {
            if (random.nextInt(5) == 0) {
                // a window of receives posted together, all wildcards: each completes whatever arrives
                int window = Math.min(left, 1 + random.nextInt(6));
                IntBuffer[] buffers = new IntBuffer[window];
                Request[] requests = new Request[window];
                for (int i = 0; i < window; i++) {
                    buffers[i] = MPI.newIntBuffer(capacity);
                    requests[i] = MPI.COMM_WORLD.iRecv(buffers[i], capacity, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                }
                Status[] statuses = Request.waitAllStatus(requests);
                for (int i = 0; i < window; i++) {
                    check(statuses[i], buffers[i], MPI.ANY_SOURCE, MPI.ANY_TAG, sent, received);
                }
                left -= window;
                continue;
            }
            Message target = pickUnreceived(random, sent, received);
            int source = random.nextInt(3) == 0 ? MPI.ANY_SOURCE : target.source();
            int tag = random.nextInt(3) == 0 ? MPI.ANY_TAG : target.tag();
            int[] buffer = new int[capacity];
            Status status = MPI.COMM_WORLD.recv(buffer, capacity, MPI.INT, source, tag);
            check(status, IntBuffer.wrap(buffer), source, tag, sent, received);
            left--;
        }
    }

    private static Message pickUnreceived(Random random, List<List<Message>> sent, boolean[][] received) {
        while (true) {
            int s = 1 + random.nextInt(sent.size() - 1);
            int i = random.nextInt(MESSAGES);
            if (!received[s][i]) {
                return sent.get(s).get(i);
            }
        }
    }

    /** Checks one received message against the plan and the order rule, and marks it received. */
    private static void check(Status status, IntBuffer data, int source, int tag, List<List<Message>> sent,
                              boolean[][] received) throws Exception {
        int from = status.getSource();
        int seq = data.get(1);
        assertThat(data.get(0)).isEqualTo(from);
        Message m = sent.get(from).get(seq);
        assertThat(status.getTag()).isEqualTo(m.tag());
        assertThat(status.getCount(MPI.INT)).isEqualTo(m.ints());
        assertThat(source == MPI.ANY_SOURCE || source == from).isTrue();
        assertThat(tag == MPI.ANY_TAG || tag == m.tag()).isTrue();
        assertThat(received[from][seq]).as("message %d from %d received twice", seq, from).isFalse();
        for (int i = 2; i < m.ints(); i++) {
            if (data.get(i) != seq * 7 + i) {
                throw new AssertionError("message " + seq + " from " + from + " corrupt at int " + i);
            }
        }
        for (int earlier = 0; earlier < seq; earlier++) {
            Message e = sent.get(from).get(earlier);
            boolean matches = tag == MPI.ANY_TAG || e.tag() == tag;
            if (matches && !received[from][earlier]) {
                throw new AssertionError("message " + seq + " from " + from + " (tag " + m.tag() + ") overtook "
                        + "message " + earlier + " (tag " + e.tag() + ") for a receive of source " + source
                        + ", tag " + tag);
            }
        }
        received[from][seq] = true;
    }
}
