package org.portals3j.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What {@link Suite} measured, and its four renderings: OSU-format tables, {@code results.json}, latency and
 * bandwidth plots (PNG and SVG, by XChart) and {@code index.html} with the ratios against the goals.
 */
record SuiteReport(String date, Map<String, String> machine, double load, String idleWarning, boolean quick,
                   List<Series> series, List<Skipped> skipped, List<Goal> goals) {
    static final String LATENCY = "latency";
    static final String BANDWIDTH = "bandwidth";
    static final String RATE = "rate";
    /** An OSU table's rows: the size, then one or two figures (the header lines are OSU's own text). */
    private static final TextTable OSU_ONE_VALUE = new TextTable("", TextTable.Column.left("size", 10, 0),
            TextTable.Column.right("value", 18, 2));
    private static final TextTable OSU_TWO_VALUES = new TextTable("", TextTable.Column.left("size", 10, 0),
            TextTable.Column.right("p50", 18, 2), TextTable.Column.right("p99", 18, 2));
    /** Rows whose name starts so measure a whole get (request and reply), not a half round trip. */
    static final String GET_PREFIX = "Portals Get";
    /** Rows of ours compared with another row of ours: Isotach with noniso, the C shim with Java, Amsend with Put. */
    static final Map<String, String> COUNTERPARTS = Map.of(Suite.ISOTACH, Suite.NONISO, Suite.SHIM_C,
            Suite.SHIM_JAVA_ROW, Suite.LAPI, Suite.LAPI_PUT, Suite.LAPI_C, Suite.LAPI_C_PUT);

    /** One size: {@code value} is the series' statistic (p50, mean or median), {@code p99} NaN when not measured. */
    record Point(int size, double value, double p99) {
    }

    /**
     * One curve: {@code kind} is {@link #LATENCY} (microseconds; half round trip unless the name says otherwise),
     * {@link #BANDWIDTH} (MB/s, 10^6 bytes per second) or {@link #RATE} (messages per second); {@code peer} marks
     * what a user would pick instead of Portals3J; {@code transport} is "-" for a peer that has none of ours.
     */
    record Series(String name, String kind, String transport, boolean peer, String statistic, List<Point> points,
                  String note) {
        Series {
            points = List.copyOf(points);
        }

        String unit() {
            return switch (kind) {
                case LATENCY -> "us";
                case BANDWIDTH -> "MB/s";
                default -> "messages/s";
            };
        }

        String label() {
            return transport.equals("-") ? name : name + " (" + transport + ")";
        }

        /** The point at {@code size}, or null. */
        Point at(int size) {
            for (Point p : points) {
                if (p.size() == size) {
                    return p;
                }
            }
            return null;
        }
    }

    /** A row that did not run here, and why. */
    record Skipped(String name, String why) {
    }

    /**
     * One goal of the issue: {@code layer / peer} against {@code limit} ({@code atMost}: ratio <= limit, else >=);
     * {@code why} says why it was not measured (ratio NaN), else null.
     */
    record Goal(String name, double layer, double peer, String unit, boolean atMost, double limit, String why) {
        double ratio() {
            return layer / peer;
        }

        boolean measured() {
            return why == null;
        }

        boolean met() {
            return measured() && (atMost ? ratio() <= limit : ratio() >= limit);
        }

        String verdict() {
            return !measured() ? "not measured: " + why : met() ? "met" : "missed";
        }

        String goal() {
            return (atMost ? "<= " : ">= ") + limit + "x";
        }
    }

    // ---- OSU format -----------------------------------------------------------------------------

    /** Every series as an OSU micro-benchmark table, then the skipped rows and the goals. */
    void printOsu(PrintStream out) {
        out.printf(Locale.ROOT, "# portals bench %s%s, load %.2f%n", date, quick ? " (quick)" : "", load);
        if (idleWarning != null) {
            out.println("# WARNING: " + idleWarning);
        }
        out.println();
        for (Series s : series) {
            out.println("# " + s.label() + (s.note() == null ? "" : ": " + s.note()));
            switch (s.kind()) {
                case LATENCY -> {
                    out.println("# OSU MPI Latency Test");
                    boolean p99 = s.points().stream().anyMatch(p -> !Double.isNaN(p.p99()));
                    out.println(p99 ? "# Size       P50 Latency (us)  P99 Latency (us)"
                            : "# Size          Latency (us)");
                    for (Point p : s.points()) {
                        if (p99) {
                            OSU_TWO_VALUES.printRow(out, p.size(), p.value(), p.p99());
                        } else {
                            OSU_ONE_VALUE.printRow(out, p.size(), p.value());
                        }
                    }
                }
                case BANDWIDTH -> {
                    out.println("# OSU MPI Bandwidth Test");
                    out.println("# Size      Bandwidth (MB/s)");
                    s.points().forEach(p -> OSU_ONE_VALUE.printRow(out, p.size(), p.value()));
                }
                default -> {
                    out.println("# OSU MPI Multiple Bandwidth / Message Rate Test");
                    out.println("# Size         Messages/s");
                    s.points().forEach(p -> OSU_ONE_VALUE.printRow(out, p.size(), p.value()));
                }
            }
            out.println();
        }
        for (Skipped k : skipped) {
            out.println("# " + k.name() + ": skipped: " + k.why());
        }
        out.println();
        out.println("# Goals (layer / peer, same run)");
        for (Goal g : goals) {
            out.printf(Locale.ROOT, "# %s: %s, goal %s: %s%n", g.name(),
                    g.measured() ? String.format(Locale.ROOT, "%.2fx (%.3f / %.3f %s)", g.ratio(), g.layer(), g.peer(),
                            g.unit()) : "-", g.goal(), g.verdict());
        }
    }

    // ---- JSON -----------------------------------------------------------------------------------

    String json() {
        StringBuilder b = new StringBuilder(8192);
        b.append("{\n  \"date\": ").append(quote(date)).append(",\n  \"quick\": ").append(quick);
        b.append(",\n  \"load\": ").append(number(load));
        b.append(",\n  \"idle\": ").append(idleWarning == null);
        b.append(",\n  \"warning\": ").append(idleWarning == null ? "null" : quote(idleWarning));
        b.append(",\n  \"machine\": {");
        String sep = "";
        for (Map.Entry<String, String> e : machine.entrySet()) {
            b.append(sep).append("\n    ").append(quote(e.getKey())).append(": ").append(quote(e.getValue()));
            sep = ",";
        }
        b.append("\n  },\n  \"series\": [");
        sep = "";
        for (Series s : series) {
            b.append(sep).append("\n    {\"name\": ").append(quote(s.name())).append(", \"kind\": ")
                    .append(quote(s.kind())).append(", \"transport\": ").append(quote(s.transport()))
                    .append(", \"peer\": ").append(s.peer()).append(", \"statistic\": ").append(quote(s.statistic()))
                    .append(", \"unit\": ").append(quote(s.unit())).append(", \"note\": ")
                    .append(s.note() == null ? "null" : quote(s.note())).append(",\n     \"points\": [");
            String psep = "";
            for (Point p : s.points()) {
                b.append(psep).append("{\"size\": ").append(p.size()).append(", \"value\": ").append(number(p.value()))
                        .append(", \"p99\": ").append(number(p.p99())).append('}');
                psep = ", ";
            }
            b.append("]}");
            sep = ",";
        }
        b.append("\n  ],\n  \"skipped\": [");
        sep = "";
        for (Skipped k : skipped) {
            b.append(sep).append("\n    {\"name\": ").append(quote(k.name())).append(", \"why\": ")
                    .append(quote(k.why())).append('}');
            sep = ",";
        }
        b.append("\n  ],\n  \"goals\": [");
        sep = "";
        for (Goal g : goals) {
            b.append(sep).append("\n    {\"name\": ").append(quote(g.name())).append(", \"layer\": ")
                    .append(number(g.layer())).append(", \"peer\": ").append(number(g.peer())).append(", \"unit\": ")
                    .append(quote(g.unit())).append(", \"ratio\": ").append(number(g.ratio())).append(", \"goal\": ")
                    .append(quote(g.goal())).append(", \"verdict\": ").append(quote(g.verdict())).append('}');
            sep = ",";
        }
        return b.append("\n  ]\n}\n").toString();
    }

    private static String number(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "null";
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    // ---- plots ----------------------------------------------------------------------------------

    /** latency.png/.svg and bandwidth.png/.svg in {@code dir}: every series of the kind, log-log. */
    void plot(Path dir) throws IOException {
        chart(dir, LATENCY, "Latency (p50, or mean where no percentiles)", "latency (us)");
        chart(dir, BANDWIDTH, "Bandwidth", "bandwidth (MB/s)");
    }

    private void chart(Path dir, String kind, String title, String yTitle) throws IOException {
        XYChart chart = new XYChartBuilder().width(1000).height(650).title(title).xAxisTitle("message size (bytes)")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true).setLegendVisible(true);
        for (Series s : series) {
            if (!s.kind().equals(kind)) {
                continue;
            }
            List<Point> plotted = new ArrayList<>();
            for (Point p : s.points()) {
                if (p.size() > 0 && p.value() > 0 && Double.isFinite(p.value())) {
                    plotted.add(p);
                }
            }
            if (plotted.isEmpty()) {
                continue;
            }
            double[] x = plotted.stream().mapToDouble(Point::size).toArray();
            double[] y = plotted.stream().mapToDouble(Point::value).toArray();
            chart.addSeries(s.label() + " " + s.statistic(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("nothing measured", new double[] {1}, new double[] {1});
        }
        BitmapEncoder.saveBitmap(chart, dir.resolve(kind + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(chart, dir.resolve(kind + ".svg").toString(),
                VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }

    // ---- HTML -----------------------------------------------------------------------------------

    String html() {
        StringBuilder b = new StringBuilder(16384);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>portals bench ")
                .append(esc(date)).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
                        + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:3px 8px;"
                        + "text-align:right}th{background:#eee}td.l{text-align:left}.met{background:#cfc}"
                        + ".missed{background:#fcc}.none{background:#eee}.warn{color:#a00;font-weight:bold}"
                        + "</style></head><body>\n<h1>portals bench</h1>\n<p>")
                .append(esc(date)).append(quick ? " (quick: a smoke run, not figures to quote)" : "")
                .append("; load ").append(String.format(Locale.ROOT, "%.2f", load)).append("</p>\n");
        if (idleWarning != null) {
            b.append("<p class=\"warn\">").append(esc(idleWarning)).append("</p>\n");
        }
        b.append("<table>");
        machine.forEach((k, v) -> b.append("<tr><td class=\"l\">").append(esc(k)).append("</td><td class=\"l\">")
                .append(esc(v)).append("</td></tr>"));
        b.append("</table>\n<h2>Goals (layer / peer, same run)</h2>\n<table><tr><th>goal</th><th>layer</th>"
                + "<th>peer</th><th>ratio</th><th>limit</th><th>verdict</th></tr>\n");
        for (Goal g : goals) {
            String css = !g.measured() ? "none" : g.met() ? "met" : "missed";
            b.append("<tr class=\"").append(css).append("\"><td class=\"l\">").append(esc(g.name())).append("</td><td>")
                    .append(fmt(g.layer())).append(' ').append(esc(g.unit())).append("</td><td>").append(fmt(g.peer()))
                    .append(' ').append(esc(g.unit())).append("</td><td>")
                    .append(g.measured() ? String.format(Locale.ROOT, "%.2fx", g.ratio()) : "-").append("</td><td>")
                    .append(esc(g.goal())).append("</td><td class=\"l\">").append(esc(g.verdict()))
                    .append("</td></tr>\n");
        }
        b.append("</table>\n");
        ratioTables(b);
        b.append("<h2>How each row was measured</h2>\n<table><tr><th>row</th><th>kind</th><th>how, and where its"
                + " threads ran</th></tr>\n");
        for (Series s : series) {
            if (s.note() != null) {
                b.append("<tr><td class=\"l\">").append(esc(s.label())).append("</td><td>").append(esc(s.kind()))
                        .append("</td><td class=\"l\">").append(esc(s.note())).append("</td></tr>\n");
            }
        }
        b.append("</table>\n");
        b.append("<h2>Plots</h2>\n<p><img src=\"latency.svg\" alt=\"latency by size\" width=\"1000\"></p>\n"
                + "<p><img src=\"bandwidth.svg\" alt=\"bandwidth by size\" width=\"1000\"></p>\n"
                + "<p>PNG: <a href=\"latency.png\">latency</a>, <a href=\"bandwidth.png\">bandwidth</a>; every figure:"
                + " <a href=\"results.json\">results.json</a></p>\n");
        if (!skipped.isEmpty()) {
            b.append("<h2>Skipped</h2>\n<table><tr><th>row</th><th>why</th></tr>\n");
            for (Skipped k : skipped) {
                b.append("<tr><td class=\"l\">").append(esc(k.name())).append("</td><td class=\"l\">skipped: ")
                        .append(esc(k.why())).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    /**
     * The pairs a ratio column shows: each row of ours (but a whole get, which no peer measures the same way) over
     * each peer of its kind that has no transport or the same one; and a row over its own counterpart
     * ({@link #COUNTERPARTS}).
     */
    private List<Series[]> pairs(List<Series> of) {
        List<Series[]> pairs = new ArrayList<>();
        for (Series l : of) {
            if (l.peer() || l.name().startsWith(GET_PREFIX)) {
                continue;
            }
            for (Series p : of) {
                boolean peer = p.peer() && (p.transport().equals("-") || p.transport().equals(l.transport()));
                boolean counterpart = p.name().equals(COUNTERPARTS.get(l.name()))
                        && p.transport().equals(l.transport());
                if (peer || counterpart) {
                    pairs.add(new Series[] {l, p});
                }
            }
        }
        return pairs;
    }

    /** Per kind: one row per size, one column per series, then the ratio columns of {@link #pairs}. */
    private void ratioTables(StringBuilder b) {
        for (String kind : List.of(LATENCY, BANDWIDTH, RATE)) {
            List<Series> of = series.stream().filter(s -> s.kind().equals(kind)).toList();
            if (of.isEmpty()) {
                continue;
            }
            List<Series[]> pairs = pairs(of);
            b.append("<h2>").append(kind).append(" (").append(esc(of.get(0).unit())).append(")</h2>\n<table><tr>"
                    + "<th>size</th>");
            of.forEach(s -> b.append("<th>").append(esc(s.label())).append("<br>").append(esc(s.statistic()))
                    .append("</th>"));
            for (Series[] pair : pairs) {
                b.append("<th>").append(esc(pair[0].label())).append("<br>/ ").append(esc(pair[1].label()))
                        .append("</th>");
            }
            b.append("</tr>\n");
            TreeSet<Integer> sizes = new TreeSet<>();
            of.forEach(s -> s.points().forEach(p -> sizes.add(p.size())));
            for (int size : sizes) {
                b.append("<tr><td>").append(size).append("</td>");
                for (Series s : of) {
                    Point p = s.at(size);
                    b.append("<td>").append(p == null ? "" : fmt(p.value())).append("</td>");
                }
                for (Series[] pair : pairs) {
                    Point a = pair[0].at(size);
                    Point c = pair[1].at(size);
                    b.append("<td>").append(a == null || c == null ? ""
                            : String.format(Locale.ROOT, "%.2fx", a.value() / c.value())).append("</td>");
                }
                b.append("</tr>\n");
            }
            b.append("</table>\n");
        }
    }

    private static String fmt(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 1 ? "%.2f" : "%.3f", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Writes results.json, the plots and index.html into {@code dir} (created if needed). */
    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.json"), json(), StandardCharsets.UTF_8);
        plot(dir);
        Files.writeString(dir.resolve("index.html"), html(), StandardCharsets.UTF_8);
    }
}
