package org.portals3j.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.transport.udp.UdpOptions;

/**
 * The resident memory of a process whose rank 0 puts (8 bytes, no ack, no events) in a loop to rank 1 on udp for a
 * while, with the default bound on the per-peer send queue against a very large one, in one run: each is a child
 * JVM of its own (same flags, {@code -Xmx3g}), which reports its VmRSS (/proc/self/status) every few seconds.
 *
 * <pre>java -cp benchmarks.jar org.portals3j.bench.PutLoopMemory [--seconds S]</pre>
 */
public final class PutLoopMemory {
    /** The "very large" bound: enough for the queue to grow as it did without one, within the child's heap. */
    static final String LARGE_BOUND = "2000000";

    private PutLoopMemory() {
    }

    /** One child's figures. */
    public record Run(String bound, long maxRssKib, long lastRssKib, long puts, long seconds) {
    }

    public static void main(String[] args) throws Exception {
        long seconds = 60;
        boolean child = false;
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Long.parseLong(args[++i]);
                case "--child" -> child = true;
                case "--option" -> {
                    String[] kv = args[++i].split("=", 2);
                    options.put(kv[0], kv[1]);
                }
                default -> {
                    System.err.println("usage: PutLoopMemory [--seconds S]");
                    System.exit(2);
                }
            }
        }
        if (child) {
            putLoop(seconds, options);
            System.exit(0); // the peer's queue may still hold millions of messages: do not wait for it to drain
        }
        List<Run> runs = new ArrayList<>();
        runs.add(spawn(seconds, "default (" + UdpOptions.DEFAULT_SEND_QUEUE_MESSAGES + " messages, 64 MiB)", null));
        runs.add(spawn(seconds, LARGE_BOUND + " messages", LARGE_BOUND));
        print(runs, System.out);
    }

    private static Run spawn(long seconds, String label, String messages) throws IOException, InterruptedException {
        String javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(javaExecutable,
                "-Xmx3g", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PutLoopMemory.class.getName(), "--child", "--seconds", String.valueOf(seconds)));
        if (messages != null) {
            command.addAll(List.of("--option", UdpOptions.SEND_QUEUE_MESSAGES + "=" + messages,
                    "--option", UdpOptions.SEND_QUEUE_BYTES + "=" + (1L << 50)));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        long maxRss = 0;
        long lastRss = 0;
        long puts = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("rss ")) { // rss <seconds> <kiB> <puts>
                    String[] f = line.split(" ");
                    lastRss = Long.parseLong(f[2]);
                    maxRss = Math.max(maxRss, lastRss);
                    puts = Long.parseLong(f[3]);
                    System.err.println("  [" + label + "] " + line);
                } else {
                    System.err.println("  [" + label + "] " + line);
                }
            }
        }
        p.waitFor();
        return new Run(label, maxRss, lastRss, puts, seconds);
    }

    /** The child: rank 0 puts to rank 1 in a loop for {@code seconds}, printing its RSS every 5 s. */
    static void putLoop(long seconds, Map<String, String> options) throws Exception {
        try (TwoRanks job = TwoRanks.open("udp", options); Arena arena = Arena.ofShared()) {
            Portals p0 = job.portals(0);
            Portals p1 = job.portals(1);
            EqHandle eq1 = p1.eqAlloc(job.ni(1), 64); // overflows: nobody reads it, as nobody reads events here
            job.appendReceive(1, 4, 7L, arena.allocate(64), eq1);
            MdHandle md = p0.mdBind(job.ni(0), MemoryDescriptor.of(arena.allocate(8)));
            long start = System.nanoTime();
            long nextReport = start;
            long puts = 0;
            while (true) {
                long now = System.nanoTime();
                if (now >= nextReport) {
                    System.out.println("rss " + (now - start) / 1_000_000_000L + " " + rssKib() + " " + puts);
                    nextReport += 5_000_000_000L;
                    if (now - start >= seconds * 1_000_000_000L) {
                        break;
                    }
                }
                p0.put(md, AckRequest.NOACK_REQ, job.id(1), 4, 0, 7L, 0L, 0L);
                puts++;
            }
        }
    }

    private static long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    static void print(List<Run> runs, PrintStream out) {
        out.printf(Locale.ROOT, "udp: resident memory of a rank putting 8 B in a loop to a live peer (%d s, one JVM per"
                + " bound, -Xmx3g)%n", runs.get(0).seconds());
        for (Run r : runs) {
            out.printf(Locale.ROOT, "  bound %-36s max RSS %6d MiB, at the end %6d MiB, %,d puts%n", r.bound(),
                    r.maxRssKib() / 1024, r.lastRssKib() / 1024, r.puts());
        }
        if (runs.size() == 2 && runs.get(0).maxRssKib() > 0) {
            out.printf(Locale.ROOT, "  max RSS, large bound / default bound   %.1f%n",
                    (double) runs.get(1).maxRssKib() / runs.get(0).maxRssKib());
        }
    }
}
