package org.portals3j.bench;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.portals3j.lapi.RetFlag;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;

/**
 * LAPI_Amsend against a Portals Put on the same transport, measured in the same run.
 *
 * <p><b>Latency:</b> a ping-pong between the two ranks of a job, half the round trip. Portals: {@link PingPong}'s
 * Put ping-pong (a put into the peer's match entry, {@code PtlEQWait} for its PUT_END, the same size back). LAPI:
 * rank 0 Amsends {@code size} bytes of user data (no user header) to rank 1 naming a {@code tgt_cntr} on rank 1;
 * rank 1's header handler returns its receive buffer and sets an empty completion handler; rank 1 waits for
 * {@code tgt_cntr} with {@code LAPI_Waitcntr} and Amsends the same size back. {@code org_cntr} and
 * {@code cmpl_cntr} are NULL: the answer is the ping-pong's own reply. The header handler asks for
 * {@link RetFlag#SEND_REPLY} ({@code --flags}): the man page's way to run a short, non-blocking completion handler
 * inline on the dispatcher instead of queueing it for the completion thread, which is what an empty handler is;
 * {@code --flags normal} measures the queued path. For each size the two alternate in {@value #ROUNDS} rounds on
 * the same threads, so that both see the same machine.
 *
 * <p><b>Bandwidth:</b> windows of {@value PingPong#WINDOW} back-to-back 1 MiB Puts (an 8-byte put back once all
 * arrived) alternating with windows of as many 1 MiB Amsends (rendezvous: header put, PtlGet by the target) and an
 * 8-byte Amsend back once rank 1's {@code tgt_cntr} counted them all; the medians give the rates.
 *
 * <p><b>Allocation:</b> the bytes every thread of the JVM allocated during the measured Amsend round trips (rank
 * threads, the LAPI dispatcher and completion threads, the transport's), less what taking the figure costs.
 */
public final class AmsendPingPong {
    static final int ROUNDS = 10;
    private static final TextTable TABLE = new TextTable(" ",
            TextTable.Column.right("size", 8, 0),
            TextTable.Column.right("put_p50", 10, 3),
            TextTable.Column.right("put_p99", 10, 3),
            TextTable.Column.right("amsend_p50", 12, 3),
            TextTable.Column.right("amsend_p99", 12, 3),
            TextTable.Column.right("amsend/put_p50", 14, 2));
    static final int DEFAULT_ITERATIONS = 20_000;
    static final int QUICK_ITERATIONS = 200;
    static final int[] SIZES = {8, 1024};
    static final long BARRIER_TIMEOUT_SECONDS = 120;

    static final String USAGE = """
            usage: AmsendPingPong [--transport NAME] [--iterations N] [--flags send_reply|normal]
                                  [--mode interrupt|polling] [--quick]
              --transport   transport of the 2-rank job (default inmem)
              --mode        interrupt: a dispatcher thread per task makes progress (INTERRUPT_SET 1, the default);
                            polling: the thread in Waitcntr runs the dispatcher itself (INTERRUPT_SET 0)
              --iterations  measured round trips per size and kind (default 20000)
              --flags       the ret_flags the header handler sets (default send_reply: the empty completion
                            handler runs inline on the dispatcher; normal: on the completion thread)
              --quick       a short run (200 iterations) for tests""";

    private AmsendPingPong() {
    }

    /** What to run. */
    record Options(String transport, int iterations, RetFlag flags, boolean polling, boolean quick) {
        static Options parse(String... args) {
            String transport = "inmem";
            Integer iterations = null;
            RetFlag flags = RetFlag.SEND_REPLY;
            boolean polling = false;
            boolean quick = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    return null;
                }
                if (a.equals("--quick")) {
                    quick = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value, or is unknown");
                }
                String v = args[++i];
                switch (a) {
                    case "--transport" -> transport = v;
                    case "--iterations" -> iterations = Integer.parseInt(v.trim());
                    case "--flags" -> flags = switch (v.trim().toLowerCase(Locale.ROOT)) {
                        case "send_reply" -> RetFlag.SEND_REPLY;
                        case "normal" -> RetFlag.NORMAL;
                        default -> throw new IllegalArgumentException("--flags takes send_reply or normal, not " + v);
                    };
                    case "--mode" -> polling = switch (v.trim().toLowerCase(Locale.ROOT)) {
                        case "interrupt" -> false;
                        case "polling" -> true;
                        default -> throw new IllegalArgumentException("--mode takes interrupt or polling, not " + v);
                    };
                    default -> throw new IllegalArgumentException("unknown option '" + a + "'");
                }
            }
            int n = iterations != null ? iterations : quick ? QUICK_ITERATIONS : DEFAULT_ITERATIONS;
            if (n < ROUNDS) {
                throw new IllegalArgumentException("--iterations must be at least " + ROUNDS);
            }
            return new Options(transport, n, flags, polling, quick);
        }

        int bandwidthWindows() {
            return quick ? 8 : 64;
        }

        int bandwidthWarmupWindows() {
            return quick ? 4 : 64;
        }
    }

    /** One size: p50 and p99 half round trips in microseconds. */
    record Row(int size, double putP50, double putP99, double amsendP50, double amsendP99) {
        double ratioP50() {
            return amsendP50 / putP50;
        }
    }

    /** Median rates of the bandwidth windows in GB/s. */
    record Bandwidth(double put, double amsend, int windows) {
        double ratio() {
            return amsend / put;
        }
    }

    /** @param allocatedBytes bytes allocated by every thread during the measured Amsend round trips, -1 unknown */
    record Result(Options options, List<Row> rows, Bandwidth bandwidth, long allocatedBytes, long roundTrips) {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (options == null) {
            out.println(USAGE);
            return 0;
        }
        try {
            print(measure(options), out);
            return 0;
        } catch (Exception e) {
            err.println("amsend ping-pong failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    static void print(Result r, PrintStream out) {
        Options o = r.options();
        out.printf(Locale.ROOT, "AmsendPingPong: 2 ranks on transport '%s', %s mode, ret_flags %s, empty completion"
                + " handler; half round trip in microseconds, %d round trips per size and kind%n", o.transport(),
                o.polling() ? "polling" : "interrupt", o.flags().name(), o.iterations());
        TABLE.printHeader(out);
        for (Row row : r.rows()) {
            TABLE.printRow(out, row.size(), row.putP50(), row.putP99(), row.amsendP50(), row.amsendP99(),
                    row.ratioP50());
        }
        Bandwidth b = r.bandwidth();
        out.printf(Locale.ROOT, "bandwidth 1 MiB: Put %.2f GB/s, Amsend %.2f GB/s, Amsend/Put %.2f (medians of %d"
                + " windows of %d)%n", b.put(), b.amsend(), b.ratio(), b.windows(), PingPong.WINDOW);
        if (r.allocatedBytes() < 0) {
            out.println("allocation: not measurable on this JVM");
        } else {
            out.printf(Locale.ROOT, "allocation in the measured Amsend round trips (every thread): %d bytes over %d"
                    + " round trips (%.3f B per round trip)%n", r.allocatedBytes(), r.roundTrips(),
                    (double) r.allocatedBytes() / Math.max(1, r.roundTrips()));
        }
    }

    static Result measure(Options options) throws Exception {
        Job job = Job.local(2);
        try (Arena arena = Arena.ofShared()) {
            Shared shared = new Shared(options, arena);
            LocalJob.run(options.transport(), job, IdleMode.BACKOFF, Map.of(), context -> {
                AmsendPingPongRank rank = new AmsendPingPongRank(shared, context);
                try {
                    rank.run();
                } catch (Throwable t) {
                    shared.barrier.reset();
                    throw t;
                }
            });
            if (shared.bandwidth == null || shared.rows.size() != SIZES.length) {
                throw new IllegalStateException("the ranks ended without producing every figure");
            }
            return new Result(options, List.copyOf(shared.rows), shared.bandwidth, shared.allocated,
                    shared.roundTrips);
        }
    }

    /** What the two rank threads share. */
    static final class Shared {
        final Options options;
        final Arena arena;
        final CyclicBarrier barrier = new CyclicBarrier(2);
        final List<Row> rows = new ArrayList<>();
        volatile Bandwidth bandwidth;
        volatile long allocated;
        volatile long roundTrips;
        /** Addresses exchanged by the ranks: [rank] = header handler, counter. */
        final long[] handlers = new long[2];
        final long[] counters = new long[2];

        Shared(Options options, Arena arena) {
            this.options = options;
            this.arena = arena;
        }

        void await() throws Exception {
            barrier.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
