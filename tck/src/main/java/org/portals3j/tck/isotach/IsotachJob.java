package org.portals3j.tck.isotach;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.isotach.TmPlacement;
import org.portals3j.runtime.LocalJob;
import org.portals3j.tck.TckTransport;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;

/**
 * A job of N Isotach hosts on the transport under test, all in this JVM, each with its own {@link IsotachNet},
 * opened (open_net has returned on every host) unless the builder says otherwise.
 *
 * <p>One test thread may drive every host: each {@code IsotachNet} is used by one thread at a time, and the
 * emulated switch interface units run in the transport's handlers. The helpers poll every host while they wait,
 * as an application that calls its layer regularly would.
 */
public final class IsotachJob implements AutoCloseable {
    private final List<Transport> endpoints;
    private final List<IsotachNet> nets = new ArrayList<>();
    private final @Nullable Future<Long> tokenManager;
    private final ExecutorService threads;

    private IsotachJob(List<Transport> endpoints, IsotachConfig config, int hosts, @Nullable Set<Interface> open,
                       ExecutorService threads) {
        this.endpoints = endpoints;
        this.threads = threads;
        for (int r = 0; r < hosts; r++) {
            nets.add(IsotachNet.create(endpoints.get(r), config));
        }
        if (hosts < endpoints.size()) {
            Transport tm = endpoints.get(hosts);
            tokenManager = threads.submit(() -> IsotachNet.runTokenManager(tm, config, Duration.ofMinutes(5)));
        } else {
            tokenManager = null;
        }
        if (open != null) {
            List<Future<Integer>> opening = new ArrayList<>();
            for (IsotachNet net : nets) {
                opening.add(threads.submit(() -> net.openNet(open, TckTransport.startPatience())));
            }
            for (int r = 0; r < opening.size(); r++) {
                int rc;
                try {
                    rc = opening.get(r).get();
                } catch (Exception e) {
                    close();
                    throw new IllegalStateException("open_net failed on host " + r, e);
                }
                if (rc != IsotachNet.SUCCESS) {
                    close();
                    throw new IllegalStateException("open_net returned " + rc + " on host " + r);
                }
            }
        }
    }

    /** {@code hosts} hosts with the default configuration and the given interfaces open. */
    public static IsotachJob open(int hosts, Interface first, Interface... rest) {
        return builder(hosts).interfaces(EnumSet.of(first, rest)).open();
    }

    public static Builder builder(int hosts) {
        return new Builder(hosts);
    }

    public IsotachNet net(int host) {
        return nets.get(host);
    }

    public int size() {
        return nets.size();
    }

    /** The transport endpoint of host {@code r} (to kill it, or to read its counters). */
    public Transport endpoint(int r) {
        return endpoints.get(r);
    }

    /** Runs {@code task} on a thread of the job (e.g. a blocking open_net on one host). */
    public <T> Future<T> submit(Callable<T> task) {
        return threads.submit(task);
    }

    /** Polls every host once. */
    public void pollAll() {
        for (IsotachNet net : nets) {
            net.poll();
        }
    }

    /**
     * The next Isotach message or notice at {@code host}, copied out (its payload outlives the next call), polling
     * every host while it waits; fails the test after the kit's patience.
     */
    public Delivered awaitIso(int host) {
        IsoMessage m = new IsoMessage();
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (true) {
            int rc = nets.get(host).isoReceive(m);
            if (rc == IsotachNet.SUCCESS) {
                return Delivered.of(m);
            }
            if (rc != IsotachNet.NO_MESSAGE) {
                throw new AssertionError("iso_receive on host " + host + " returned " + rc);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("host " + host + " received nothing within " + TckTransport.patience()
                        + " (logical time " + nets.get(host).logicalTime() + ", counters " + nets.get(host).counters()
                        + ")");
            }
            pollOthers(host);
        }
    }

    /** Whatever {@code host} receives (messages and notices) while every host is polled for {@code period}. */
    public List<Delivered> drainIso(int host, Duration period) {
        List<Delivered> out = new ArrayList<>();
        IsoMessage m = new IsoMessage();
        long deadline = System.nanoTime() + period.toNanos();
        while (System.nanoTime() < deadline) {
            if (nets.get(host).isoReceive(m) == IsotachNet.SUCCESS) {
                out.add(Delivered.of(m));
            } else {
                pollOthers(host);
            }
        }
        return out;
    }

    /** The next noniso message at {@code host}, copied out, polling every host while it waits. */
    public Delivered awaitNoniso(int host) {
        NonisoMessage m = new NonisoMessage();
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (true) {
            int rc = nets.get(host).receive(m);
            if (rc == IsotachNet.SUCCESS) {
                return new Delivered(IsoMessage.ISO_MBM, m.senderId(), m.toByteArray(), 0, -1);
            }
            if (rc != IsotachNet.NO_MESSAGE) {
                throw new AssertionError("receive on host " + host + " returned " + rc);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("host " + host + " received no noniso message within "
                        + TckTransport.patience());
            }
            pollOthers(host);
        }
    }

    private void pollOthers(int host) {
        for (int r = 0; r < nets.size(); r++) {
            if (r != host) {
                nets.get(r).poll();
            }
        }
        Thread.onSpinWait();
    }

    /** Waits until {@code condition} holds, polling every host; fails after the kit's patience. */
    public void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            pollAll();
            Thread.onSpinWait();
        }
    }

    /** try_close_net on every host, round-robin, until all succeed; fails after the kit's patience. */
    public void closeNetAll() {
        boolean[] done = new boolean[nets.size()];
        IsoMessage m = new IsoMessage();
        NonisoMessage nm = new NonisoMessage();
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        int remaining = nets.size();
        while (remaining > 0) {
            for (int r = 0; r < nets.size(); r++) {
                if (done[r]) {
                    continue;
                }
                if (nets.get(r).tryCloseNet() == IsotachNet.SUCCESS) {
                    done[r] = true;
                    remaining--;
                } else {
                    nets.get(r).isoReceive(m);
                    nets.get(r).receive(nm);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("try_close_net did not succeed on every host: " + Arrays.toString(done));
            }
        }
    }

    @Override
    public void close() {
        nets.forEach(IsotachNet::close);
        endpoints.forEach(Transport::close);
        if (tokenManager != null) {
            tokenManager.cancel(true);
        }
        threads.shutdownNow();
    }

    /** A delivered message or notice, copied. */
    public record Delivered(int tag, int sender, byte[] data, int bits, long pulse) {
        static Delivered of(IsoMessage m) {
            return new Delivered(m.tag(), m.sender(), m.isNotice() ? new byte[0] : m.toByteArray(), m.bits(),
                    m.pulse());
        }

        public boolean isNotice() {
            return tag == IsoMessage.BS_NOTICE;
        }

        /** The messages of {@code delivered}, in order. */
        public static List<Delivered> messagesOf(List<Delivered> delivered) {
            return delivered.stream().filter(d -> !d.isNotice()).toList();
        }

        /** The notices of {@code delivered}, in order. */
        public static List<Delivered> noticesOf(List<Delivered> delivered) {
            return delivered.stream().filter(Delivered::isNotice).toList();
        }

        /** The first 4 bytes as a little-endian int (tests put a sequence number there). */
        public int firstInt() {
            return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        }

        @Override
        public String toString() {
            return isNotice() ? "notice[bits=0x" + Integer.toHexString(bits) + " @" + pulse + "]"
                    : "msg[from " + sender + ", " + data.length + " B" + (data.length >= 4 ? ", #" + firstInt() : "")
                    + " @" + pulse + "]";
        }
    }

    /** Options: configuration, interfaces, transport, whether to open. */
    public static final class Builder {
        private final int hosts;
        private IsotachConfig config = IsotachConfig.defaults();
        private Set<Interface> interfaces = EnumSet.of(Interface.NONISO, Interface.ISO_MBM);
        private boolean open = true;
        private @Nullable String transport;

        private Builder(int hosts) {
            this.hosts = hosts;
        }

        public Builder config(IsotachConfig newConfig) {
            this.config = newConfig;
            return this;
        }

        public Builder interfaces(Set<Interface> set) {
            this.interfaces = EnumSet.copyOf(set);
            return this;
        }

        /** Creates the layers but does not call open_net. */
        public Builder unopened() {
            this.open = false;
            return this;
        }

        public Builder transport(String name) {
            this.transport = name;
            return this;
        }

        public IsotachJob open() {
            int ranks = config.tmPlacement() == TmPlacement.OWN_PROCESS ? hosts + 1 : hosts;
            String name = transport != null ? transport : TckTransport.name();
            Job job = Job.local(ranks);
            List<Transport> endpoints;
            try {
                endpoints = LocalJob.openAll(Transports.require(name), job, IdleMode.BACKOFF, Map.of());
            } catch (TransportException e) {
                throw new IllegalStateException("cannot start a job on transport '" + name + "': " + e.getMessage(), e);
            }
            ExecutorService threads = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "isotach-job");
                t.setDaemon(true);
                return t;
            });
            return new IsotachJob(endpoints, config, hosts, open ? interfaces : null, threads);
        }
    }
}
