package org.portals3j.tck.isotach;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Single-threaded traffic for the ordering tests: tagged isochrons sent from any host, and every host received
 * round-robin (so that credits keep flowing back to every sender while the test waits for one host).
 *
 * <p>Every payload starts with a 16-byte tag (little-endian): {@code seq} (per sender, from 0), {@code sender},
 * {@code iso} (the sender's isochron number, from 0), {@code pos} (2 bytes: index in the isochron),
 * {@code isoSize} (1 byte), {@code phase} (1 byte: bits 0-6 test-defined, bit 7 set when the isochron has a message
 * for another host); the rest of the payload is a pattern derived from (sender, seq) so that corruption is seen.
 */
final class IsoTraffic {
    static final int TAG = 16;

    private final IsotachJob job;
    private final int n;
    private final List<List<Delivered>> got = new ArrayList<>();
    private final int[] seq;
    private final int[] iso;
    private final IsoMessage holder = new IsoMessage();
    /**
     * I-001 holds with MBM_VER=2 only: version 1 delivers iso-pointers as they arrive (Isotach report §7.3.5,
     * pp. 66-69).
     */
    private final boolean ordered;

    IsoTraffic(IsotachJob job) {
        this.job = job;
        this.n = job.size();
        this.ordered = job.net(0).getMbmVer() == 2;
        this.seq = new int[n];
        this.iso = new int[n];
        for (int h = 0; h < n; h++) {
            got.add(new ArrayList<>());
        }
    }

    /**
     * Runs {@code body} on a thread of the job and waits at most {@code limit}. If the body has not returned by then
     * (the layer kept the calling thread), the job is closed - which makes the layer's sends fail and lets that
     * thread go - and the test fails: an API call must return (every call is non-blocking, Isotach report App. A.5,
     * pp. 98-99).
     */
    static void withinTime(IsotachJob job, Duration limit, String what, Runnable body) {
        Future<Object> f = job.submit(() -> {
            body.run();
            return Boolean.TRUE;
        });
        try {
            f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            job.close();
            throw new AssertionError(what + ": an Isotach call did not return within " + limit
                    + " (the thread was kept inside the layer)", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssertionError ae) {
                throw ae;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The payload of message {@code seq} of {@code sender}: the tag, then a pattern. */
    static byte[] payload(int sender, int seq, int iso, int pos, int isoSize, int phase, int size) {
        byte[] b = new byte[Math.max(size, TAG)];
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(seq).putInt(sender).putInt(iso).putShort((short) pos).put((byte) isoSize).put((byte) phase);
        for (int i = TAG; i < b.length; i++) {
            b[i] = pattern(sender, seq, i);
        }
        return b;
    }

    static byte pattern(int sender, int seq, int i) {
        return (byte) (sender * 31 + seq * 7 + i * 13);
    }

    /** The tag of a delivered message. */
    record Tag(int sender, int seq, int iso, int pos, int isoSize, int phaseByte) {
        static Tag of(Delivered d) {
            if (d.data().length < TAG) {
                throw new AssertionError("message without a test tag: " + d);
            }
            ByteBuffer bb = ByteBuffer.wrap(d.data()).order(ByteOrder.LITTLE_ENDIAN);
            int seq = bb.getInt();
            int sender = bb.getInt();
            int iso = bb.getInt();
            int pos = bb.getShort();
            int isoSize = bb.get() & 0xFF;
            int phase = bb.get() & 0xFF;
            return new Tag(sender, seq, iso, pos, isoSize, phase);
        }

        /** The test-defined phase. */
        int phase() {
            return phaseByte & 0x7F;
        }

        /** Whether the isochron holds a message for a host other than its sender (a net-isochron). */
        boolean net() {
            return (phaseByte & 0x80) != 0;
        }

        /** The isochron as a string key, e.g. "2/14". */
        String isochron() {
            return sender + "/" + iso;
        }
    }

    /** Whether the payload after the tag is the pattern of (sender, seq) and the reported sender is the tag's. */
    static boolean intact(Delivered d) {
        Tag t = Tag.of(d);
        if (t.sender() != d.sender()) {
            return false;
        }
        byte[] b = d.data();
        for (int i = TAG; i < b.length; i++) {
            if (b[i] != pattern(t.sender(), t.seq(), i)) {
                return false;
            }
        }
        return true;
    }

    /** One isochron from {@code from}: one message to each of {@code dests} in order, the last one ending it. */
    List<Integer> isochron(int from, int phase, int size, int... dests) {
        List<Integer> seqs = new ArrayList<>();
        int k = iso[from]++;
        int flag = phase | (isNet(from, dests) ? 0x80 : 0);
        for (int i = 0; i < dests.length; i++) {
            int s = seq[from]++;
            seqs.add(s);
            send(from, dests[i], payload(from, s, k, i, dests.length, flag, size), i == dests.length - 1);
        }
        return seqs;
    }

    static boolean isNet(int from, int... dests) {
        for (int d : dests) {
            if (d != from) {
                return true;
            }
        }
        return false;
    }

    /** iso_send until it succeeds, receiving at every host in between (so credits come back). */
    void send(int from, int dest, byte[] data, boolean last) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (job.net(from).isoSend(dest, data, last) != IsotachNet.SUCCESS) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("iso_send " + from + " -> " + dest + " kept failing");
            }
            receiveAll();
        }
    }

    /** One iso_receive on every host; returns how many were delivered. Checks I-001 on each delivery. */
    int receiveAll() {
        int k = 0;
        for (int h = 0; h < n; h++) {
            IsotachNet net = job.net(h);
            if (net.isoReceive(holder) == IsotachNet.SUCCESS) {
                Delivered d = copy(holder);
                long now = net.logicalTime();
                if (ordered && now < d.pulse()) {
                    throw new AssertionError("host " + h + " delivered " + d + " at logical time " + now
                            + ", before the end of its pulse (I-001)");
                }
                got.get(h).add(d);
                k++;
            }
        }
        return k;
    }

    static Delivered copy(IsoMessage m) {
        return new Delivered(m.tag(), m.sender(), m.isNotice() ? new byte[0] : m.toByteArray(), m.bits(), m.pulse());
    }

    /** Receives everywhere until every host has at least {@code messages[h]} messages (notices not counted). */
    void awaitMessages(int... messages) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (true) {
            boolean done = true;
            for (int h = 0; h < n; h++) {
                if (messages(h).size() < messages[h]) {
                    done = false;
                }
            }
            if (done) {
                return;
            }
            if (System.nanoTime() > deadline) {
                StringBuilder s = new StringBuilder("timed out waiting for messages:");
                for (int h = 0; h < n; h++) {
                    s.append(" host ").append(h).append(' ').append(messages(h).size()).append('/').append(messages[h]);
                }
                throw new AssertionError(s.toString());
            }
            if (receiveAll() == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** Receives everywhere until {@code host} has at least {@code messages} messages. */
    void awaitMessagesAt(int host, int messages) {
        int[] want = new int[n];
        want[host] = messages;
        awaitMessages(want);
    }

    /** Receives everywhere for {@code period}; returns how many arrived. */
    int receiveFor(Duration period) {
        long deadline = System.nanoTime() + period.toNanos();
        int k = 0;
        while (System.nanoTime() < deadline) {
            k += receiveAll();
        }
        return k;
    }

    /** Everything {@code host} received (messages and notices), in order. */
    List<Delivered> all(int host) {
        return got.get(host);
    }

    /** The messages {@code host} received, in order. */
    List<Delivered> messages(int host) {
        return Delivered.messagesOf(got.get(host));
    }

    /** The notices {@code host} received, in order. */
    List<Delivered> notices(int host) {
        return Delivered.noticesOf(got.get(host));
    }

    /** A counter of {@code host}'s layer; fails the test if the layer has no such counter. */
    long counter(int host, String name) {
        return counter(job.net(host), name);
    }

    /** A counter of {@code net}; fails the test if the layer has no such counter. */
    static long counter(IsotachNet net, String name) {
        Long v = net.counters().get(name);
        if (v == null) {
            throw new AssertionError("the layer has no counter " + name + ": " + net.counters().keySet());
        }
        return v;
    }

    int hosts() {
        return n;
    }
}
