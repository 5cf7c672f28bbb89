package org.portals3j.bench;

import java.nio.ByteBuffer;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import org.checkerframework.checker.nullness.qual.Nullable;
import picocli.CommandLine.Option;

/**
 * The options of the MPI layer's two-rank blocking ping-pong tools ({@link MpiAllocations}, {@link MpiCallCounts}),
 * read by {@link PingPongArgs#parse}, and the round trip they measure.
 */
final class MpiPingPongArgs {
    static final int TAG = 3;

    @Option(names = {"-h", "--help"}, usageHelp = true)
    boolean help;

    @Option(names = "--transport")
    String transport = "inmem";

    @Option(names = "--size")
    int size = 8;

    @Option(names = "--iterations")
    int iterations = 20_000;

    @Option(names = "--warmup")
    int warmup = 20_000;

    /** The options in {@code args}; null, after {@code tool}'s usage line is printed, if help was asked for. */
    static @Nullable MpiPingPongArgs parse(String tool, String... args) {
        MpiPingPongArgs a = new MpiPingPongArgs();
        if (!PingPongArgs.parse(a, args)) {
            System.out.println("usage: " + tool + " [--transport inmem|udp] [--size BYTES] [--iterations N]"
                    + " [--warmup N]");
            return null;
        }
        if (a.size < 0 || a.iterations <= 0 || a.warmup < 0) {
            throw new IllegalArgumentException("--size and --warmup need a number >= 0, --iterations one > 0");
        }
        return a;
    }

    /** The first line of a tool's report: what ran, with these options. */
    String title() {
        return String.format(Locale.ROOT, "# MPI layer, transport %s, %d B blocking ping-pong, %d round trips"
                + " after %d warm-up", transport, size, iterations, warmup);
    }

    /** One round trip of {@code size} bytes between world ranks 0 and 1, from {@code rank}'s side. */
    static void roundTrip(int rank, ByteBuffer buf, int size) throws MPIException {
        roundTrip(rank, buf, size, TAG);
    }

    /** One blocking round trip of {@code size} bytes with {@code tag} between world ranks 0 and 1. */
    static void roundTrip(int rank, ByteBuffer buf, int size, int tag) throws MPIException {
        if (rank == 0) {
            MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, tag);
            MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 1, tag);
        } else {
            MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, tag);
            MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, tag);
        }
    }
}
