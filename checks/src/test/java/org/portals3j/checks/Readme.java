package org.portals3j.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/** Code blocks of the README, found by the heading they follow, so that tests run exactly what users read. */
final class Readme {
    private Readme() {
    }

    /** The lines of the first fenced block of {@code language} after the line {@code heading}. */
    static List<String> block(String heading, String language) throws IOException {
        List<String> lines = Files.readAllLines(Build.root().resolve("README.md"));
        int at = lines.indexOf(heading);
        if (at < 0) {
            throw new AssertionError("README.md has no line '" + heading + "'");
        }
        int start = -1;
        for (int i = at + 1; i < lines.size(); i++) {
            if (start < 0 && lines.get(i).equals("```" + language)) {
                start = i + 1;
            } else if (start >= 0 && lines.get(i).equals("```")) {
                return new ArrayList<>(lines.subList(start, i));
            }
        }
        throw new AssertionError("README.md has no ```" + language + " block after '" + heading + "'");
    }
}
