package org.portals3j.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes one rank's output to the launcher's stdout or stderr a whole line at a time, each line prefixed
 * with the rank ({@code [2] hello}), so that lines of different ranks never mix. A last line without a
 * newline gets one when the rank's stream ends ({@link #finish()}).
 */
final class RankOutput extends OutputStream {
    private final PrintStream target;
    private final byte[] prefix;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(128);

    RankOutput(PrintStream target, int rank) {
        this.target = target;
        this.prefix = ("[" + rank + "] ").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            emit();
        } else {
            line.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line.write(b, start, i - start);
                emit();
                start = i + 1;
            }
        }
        line.write(b, start, off + len - start);
    }

    /** Writes what is left of an unterminated last line. */
    synchronized void finish() {
        if (line.size() > 0) {
            emit();
        }
    }

    private void emit() {
        // The target's lock keeps a line of one rank from interleaving with a line of another.
        synchronized (target) {
            target.write(prefix, 0, prefix.length);
            target.write(line.toByteArray(), 0, line.size());
            target.write('\n');
            target.flush();
        }
        line.reset();
    }

    /** Copies {@code in} (a rank process's stdout or stderr) to this, line by line, until it ends. */
    void pump(InputStream in) {
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                write(buf, 0, n);
            }
        } catch (IOException e) {
            // the rank's stream broke: it is gone; what it wrote so far is kept
        } finally {
            finish();
        }
    }
}
