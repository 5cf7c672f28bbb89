package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TextTableTest {
    private static final TextTable TABLE = new TextTable(" ", TextTable.Column.left("provider", 8, 0),
            TextTable.Column.right("size", 10, 0), TextTable.Column.right("p50", 10, 3),
            TextTable.Column.right("ratio", 7, 2));

    @Test
    void columnsHaveTheirWidthsAlignmentAndDecimals() {
        String out = print(t -> {
            TABLE.printHeader(t);
            TABLE.printRow(t, "tcp", 1024, 2.34567, 0.5);
        });
        String expected = String.format(Locale.ROOT, "%-8s %10s %10s %7s%n%-8s %10d %10.3f %7.2f%n", "provider",
                "size", "p50", "ratio", "tcp", 1024, 2.34567, 0.5);
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void aMissingFigureIsADash() {
        String out = print(t -> TABLE.printRow(t, "shm", 8, Double.NaN, 1.0));
        assertThat(out).isEqualTo(String.format(Locale.ROOT, "%-8s %10d %10s %7.2f%n", "shm", 8, "-", 1.0));
    }

    @Test
    void aRowMustHaveACellPerColumn() {
        assertThat(catchThrowable(() -> print(t -> TABLE.printRow(t, "tcp", 8))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 cells for 4 columns");
    }

    private interface Printing {
        void to(PrintStream out);
    }

    private static String print(Printing printing) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            printing.to(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
