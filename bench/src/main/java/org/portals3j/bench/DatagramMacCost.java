package org.portals3j.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@link DatagramMacBenchmark}'s operation (seal, copy, check one datagram) timed in this thread's CPU time rather
 * than wall time, so that a loaded machine's waits for a core do not count: the algorithms take turns in rounds,
 * and each one's best and median round are printed with the copy alone as the floor.
 *
 * <pre>java -cp benchmarks.jar org.portals3j.bench.DatagramMacCost [--length 65000] [--rounds 30] [--ops 500]
 *     [--macs auto,aes-pmac,...]</pre>
 */
public final class DatagramMacCost {
    private DatagramMacCost() {
    }

    public static void main(String[] args) {
        int length = 65000;
        int rounds = 30;
        int ops = 500;
        List<String> macs = List.of("auto", "aes-gcm", "gmac", "aes-pmac", "hmac-sha256", "crc32c");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--length" -> length = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--ops" -> ops = Integer.parseInt(args[++i]);
                case "--macs" -> macs = List.of(args[++i].split(","));
                default -> {
                    System.err.println("usage: DatagramMacCost [--length N] [--rounds N] [--ops N] [--macs a,b]");
                    System.exit(2);
                }
            }
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        List<DatagramMacBenchmark> states = new ArrayList<>();
        for (String mac : macs) {
            DatagramMacBenchmark s = new DatagramMacBenchmark();
            s.mac = mac;
            s.length = length;
            s.setUp();
            states.add(s);
        }
        int n = macs.size();
        long[][] perOp = new long[n + 1][rounds];
        for (int warm = 0; warm < 3; warm++) { // JIT: every path compiled before the first timed round
            for (DatagramMacBenchmark s : states) {
                for (int k = 0; k < 20 * ops; k++) {
                    s.sealAndCheck();
                    s.copyOnly();
                }
            }
        }
        for (int r = 0; r < rounds; r++) {
            for (int m = 0; m <= n; m++) {
                DatagramMacBenchmark s = states.get(Math.min(m, n - 1));
                long t0 = cpu.getCurrentThreadCpuTime();
                for (int k = 0; k < ops; k++) {
                    if (m < n) {
                        s.sealAndCheck();
                    } else {
                        s.copyOnly();
                    }
                }
                perOp[m][r] = (cpu.getCurrentThreadCpuTime() - t0) / ops;
            }
        }
        System.out.printf(Locale.ROOT, "seal + copy + check of one %d-byte datagram, CPU time of this thread"
                + " (%d rounds of %d)%n", length, rounds, ops);
        System.out.printf(Locale.ROOT, "%-14s %10s %10s %12s%n", "udp.mac", "best ns", "median ns", "GB/s (median)");
        for (int m = 0; m <= n; m++) {
            long[] t = perOp[m].clone();
            Arrays.sort(t);
            long median = t[t.length / 2];
            System.out.printf(Locale.ROOT, "%-14s %10d %10d %12.2f%n", m < n ? macs.get(m) : "(copy only)", t[0],
                    median, (double) length / median);
        }
    }
}
