package org.portals3j.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One result table in the OSU micro-benchmarks' format: a {@code # OSU MPI ... Test} header, a column line and one
 * row per message size (a barrier has one row, keyed by size 0). {@link #parse} reads what {@code osu_peer.c}
 * prints, {@link #print} writes the same format for the layer.
 */
record OsuTable(String header, String columns, Map<Integer, Double> rows) {
    private static final Pattern ROW = Pattern.compile("^\\s*(\\d+)\\s+([0-9.]+)\\s*$");
    private static final Pattern SINGLE = Pattern.compile("^\\s*([0-9.]+)\\s*$");
    private static final TextTable SIZE_VALUE = new TextTable("", TextTable.Column.left("size", 10, 0),
            TextTable.Column.right("value", 18, 2));
    private static final TextTable VALUE = new TextTable("", TextTable.Column.right("value", 18, 2));

    /** The table in {@code text}, whose first two lines are the header and the column line. */
    static OsuTable parse(String text) {
        String[] lines = text.strip().split("\\R");
        if (lines.length < 3 || !lines[0].startsWith("# OSU MPI") || !lines[1].startsWith("#")) {
            throw new IllegalStateException("not an OSU table:\n" + text);
        }
        Map<Integer, Double> rows = new LinkedHashMap<>();
        for (int i = 2; i < lines.length; i++) {
            Matcher m = ROW.matcher(lines[i]);
            Matcher single = SINGLE.matcher(lines[i]);
            if (m.matches()) {
                rows.put(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)));
            } else if (single.matches()) {
                rows.put(0, Double.parseDouble(single.group(1)));
            } else {
                throw new IllegalStateException("not an OSU row: '" + lines[i] + "' in\n" + text);
            }
        }
        return new OsuTable(lines[0], lines[1], rows);
    }

    /** The value at {@code size}, or an exception naming the table when the run did not produce it. */
    double at(int size) {
        Double v = rows.get(size);
        if (v == null) {
            throw new IllegalStateException(header + ": no row for size " + size);
        }
        return v;
    }

    void print(PrintStream out, String label) {
        out.println("# " + label);
        out.println(header);
        out.println(columns);
        boolean single = rows.size() == 1 && rows.containsKey(0) && header.contains("Barrier");
        for (Map.Entry<Integer, Double> e : rows.entrySet()) {
            // below 1 (a tiny message's MB/s under load) 2 decimals could print a measured figure as 0.00
            String value = TextTable.figure(e.getValue(), e.getValue() < 1 ? 6 : 2);
            if (single) {
                VALUE.printRow(out, value);
            } else {
                SIZE_VALUE.printRow(out, e.getKey(), value);
            }
        }
        out.println();
    }
}
