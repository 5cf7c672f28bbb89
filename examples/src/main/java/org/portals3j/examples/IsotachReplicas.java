package org.portals3j.examples;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.EnumSet;
import java.util.SplittableRandom;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;

/**
 * Replicated state kept consistent by isotach ordering alone, the report's motivating use (Isotach report §1.1.1,
 * pp. 1-2): every host keeps a replica of a small table, and each of its {@code updates} updates (argument, default 50)
 * goes to every host, itself included, as one isochron. Because every host applies isochrons in the same total order,
 * the replicas end equal without locks or a sequencer; each host folds the order it applied them in into a digest and
 * sends it to host 0 over the noniso layer, which checks that all digests agree.
 *
 * <pre>./portals run -n 4 -- org.portals3j.examples.IsotachReplicas 50</pre>
 *
 * <p>With a configuration file saying {@code set tm=own-process} (named by {@code PORTALS_ISOTACH_CONFIG}), the
 * job's last rank runs the token manager instead of a host.
 */
public final class IsotachReplicas {
    private IsotachReplicas() {
    }

    public static void main(String[] args) throws Exception {
        int updates = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        IsotachConfig config = IsotachNet.configuration();
        try (JobContext job = JobRuntime.join()) {
            if (IsotachNet.isTokenManagerRank(job, config)) {
                long pulses = IsotachNet.runTokenManager(job.transport(), config, Duration.ofMinutes(10));
                System.out.println(String.format("token manager: %d pulses issued", pulses));
                return;
            }
            try (IsotachNet net = IsotachNet.create(job, config)) {
                if (net.openNet(EnumSet.of(Interface.NONISO, Interface.ISO_MBM)) != IsotachNet.SUCCESS) {
                    System.err.println("open_net failed: the hosts did not synchronise");
                    System.exit(1);
                }
                System.exit(run(net, updates));
            }
        }
    }

    static int run(IsotachNet net, int updates) {
        Replica replica = new Replica(net);
        int me = net.getMyNodeNumber();
        int hosts = net.getNumberOfHosts();
        SplittableRandom random = new SplittableRandom(me * 7919L + 1);
        byte[] update = new byte[12];
        ByteBuffer out = ByteBuffer.wrap(update).order(ByteOrder.LITTLE_ENDIAN);
        for (int sent = 0; sent < updates; sent++) {
            out.clear();
            out.putInt(me).putInt(random.nextInt(16)).putInt(random.nextInt(1000));
            // one isochron: the same update to every host, itself included
            for (int dest = 0; dest < hosts; ) {
                if (net.isoSend(dest, update, dest == hosts - 1) == IsotachNet.SUCCESS) {
                    dest++;
                } else {
                    replica.apply(); // out of credits: consume what others sent so that they can go on too
                }
            }
            replica.apply();
        }
        while (replica.applied < updates * hosts) { // every host's updates, once each
            replica.apply();
        }
        // one line, one write: hosts that share a terminal (mpirun, srun) never split each other's lines
        System.out.println(String.format("host %d of %d: applied %d updates, order digest %016x, table %016x", me,
                hosts, replica.applied, replica.digest, replica.state()));
        int status = 0;
        if (me != 0) {
            byte[] report = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(replica.digest)
                    .putLong(replica.state()).array();
            while (net.send(0, report) != IsotachNet.SUCCESS) {
                net.poll();
            }
        } else {
            NonisoMessage r = new NonisoMessage();
            for (int heard = 0; heard < hosts - 1; ) {
                if (net.receive(r) == IsotachNet.SUCCESS) {
                    ByteBuffer in = r.data().asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                    long d = in.getLong();
                    long s = in.getLong();
                    if (d != replica.digest || s != replica.state()) {
                        System.err.printf("host %d applied the updates in another order: digest %016x%n",
                                r.senderId(), d);
                        status = 1;
                    }
                    heard++;
                }
            }
            if (status == 0) {
                System.out.println(String.format("all %d replicas applied %d updates in the same order", hosts,
                        replica.applied));
            }
        }
        while (net.tryCloseNet() != IsotachNet.SUCCESS) {
            replica.apply();
        }
        return status;
    }

    /** One host's replica: a table, and a digest of the order updates were applied in. */
    private static final class Replica {
        final IsotachNet net;
        final IsoMessage m = new IsoMessage();
        final long[] table = new long[16];
        long digest = 17;
        int applied;

        Replica(IsotachNet net) {
            this.net = net;
        }

        void apply() {
            while (net.isoReceive(m) == IsotachNet.SUCCESS) {
                if (m.isNotice()) {
                    continue;
                }
                ByteBuffer in = m.data().asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                int from = in.getInt();
                int key = in.getInt();
                int value = in.getInt();
                table[key] = table[key] * 31 + value;
                digest = digest * 1_000_003L + from * 131L + key * 7L + value;
                applied++;
            }
        }

        long state() {
            long state = 0;
            for (long v : table) {
                state = state * 31 + v;
            }
            return state;
        }
    }
}
