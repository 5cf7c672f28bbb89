package org.portals3j.tck.report;

/**
 * Escapes text for an HTML page. Everything a report shows from a test run or the catalogue goes through
 * here: a failure message is whatever the transport under test put in an exception, so it is hostile text.
 */
final class Html {

    private Html() {
    }

    /**
     * {@code s} as HTML text or a quoted attribute value: the five markup characters become entities, and
     * control characters other than tab and line breaks (which no page should carry) become U+FFFD.
     */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(isUnwantedControl(c) ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }

    private static boolean isUnwantedControl(char c) {
        return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7F && c < 0xA0);
    }
}
