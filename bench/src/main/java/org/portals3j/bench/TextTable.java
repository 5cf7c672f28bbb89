package org.portals3j.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * A table printed as text, the way every benchmark prints its results: fixed-width columns between separators, a
 * line of column names, then rows whose integers print as they are and whose doubles print with the column's
 * decimals, or "-" where there is no figure (NaN).
 */
final class TextTable {
    /**
     * One column.
     *
     * @param name the header line's text for it
     * @param width the characters it takes (more when a cell is wider)
     * @param left whether it is aligned left (else right)
     * @param decimals the decimals of a double in it
     */
    record Column(String name, int width, boolean left, int decimals) {
        /** A right-aligned column. */
        static Column right(String name, int width, int decimals) {
            return new Column(name, width, false, decimals);
        }

        /** A left-aligned column. */
        static Column left(String name, int width, int decimals) {
            return new Column(name, width, true, decimals);
        }
    }

    private final String separator;
    private final List<Column> columns;

    /** A table whose columns are {@code columns}, separated by {@code separator}. */
    TextTable(String separator, Column... columns) {
        this.separator = separator;
        this.columns = List.of(columns);
    }

    /** Prints the line of column names. */
    void printHeader(PrintStream out) {
        Object[] names = new Object[columns.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = columns.get(i).name();
        }
        printRow(out, names);
    }

    /**
     * Prints one row: a cell per column, an Integer or a Long as it is, a Double with the column's decimals ("-" for
     * NaN), anything else as its text.
     */
    void printRow(PrintStream out, Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + columns.size() + " columns");
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            Column c = columns.get(i);
            String text = cells[i] instanceof Double d ? figure(d, c.decimals()) : String.valueOf(cells[i]);
            if (i > 0) {
                line.append(separator);
            }
            line.append(String.format(Locale.ROOT, "%" + (c.left() ? "-" : "") + c.width() + "s", text));
        }
        out.println(line);
    }

    /** {@code value} with {@code decimals} decimals, or "-" when there is none (NaN). */
    static String figure(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
