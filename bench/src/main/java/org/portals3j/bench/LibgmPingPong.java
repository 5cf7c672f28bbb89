package org.portals3j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * libgm's own ping-pong in C ({@code gmx_pingpong}, built from native-shim/libgm/src/test/c by libgm's tests): two
 * threads of one process, a port each, gmx_send and gmx_poll without waiting. It is the floor under the gm
 * transport (the same library calls without Java, FFM or Portals), which {@link GmPingPong} sets beside it.
 */
final class LibgmPingPong {
    private static final long TIMEOUT_SECONDS = 120;
    private static final String RESULT = "p50_half_round_trip_us";

    private final Path program;

    LibgmPingPong(Path program) {
        this.program = program;
    }

    /** The p50 half round trip in microseconds of {@code iterations} round trips of {@code size} bytes. */
    double halfRoundTripMicros(String provider, int size, int iterations) throws IOException, InterruptedException {
        Path out = Files.createTempFile("gmx_pingpong", ".txt");
        try {
            Process p = new ProcessBuilder(List.of(program.toString(), provider, Integer.toString(size),
                    Integer.toString(iterations))).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(program + " did not end within " + TIMEOUT_SECONDS + " s");
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(program + " " + provider + " " + size + " failed (exit " + p.exitValue()
                        + "): " + output.strip());
            }
            return parse(output);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The figure of gmx_pingpong's result line "p50_half_round_trip_us X". */
    static double parse(String output) throws IOException {
        for (String line : output.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals(RESULT)) {
                try {
                    return Double.parseDouble(f[1]);
                } catch (NumberFormatException e) {
                    throw new IOException("gmx_pingpong printed '" + line + "'", e);
                }
            }
        }
        throw new IOException("gmx_pingpong printed no " + RESULT + " line: " + output.strip());
    }
}
