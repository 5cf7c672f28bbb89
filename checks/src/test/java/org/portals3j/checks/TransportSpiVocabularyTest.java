package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The transport SPI speaks to a transport author: its public package ({@code org.portals3j.transport}) says what a
 * transport must do in terms of "the upper layer", never naming one (Portals, Isotach, LAPI, MPI, a Ptl call).
 */
class TransportSpiVocabularyTest {

    /** An upper layer by name; "Portals3J" (the project) and "portals" (the command) are not one. */
    private static final Pattern UPPER_LAYER =
            Pattern.compile("\\b(?:Isotach|LAPI|MPI|Ptl[A-Z]\\w*)\\b|\\bPortals\\b(?!3J)");

    private static final Path SPI = Path.of("transports/spi/src/main/java/org/portals3j/transport");

    @Test
    void thePublicSpiPackageNamesNoUpperLayer() throws IOException {
        Path root = Build.root();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(root.resolve(SPI))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = UPPER_LAYER.matcher(lines.get(i));
                    if (m.find()) {
                        found.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        assertThat(found).as("upper layers named in the transport SPI; say \"the upper layer\" instead").isEmpty();
    }

    @Test
    void thePatternCatchesWhatItIsFor() {
        assertThat(UPPER_LAYER.matcher("what Portals assumes").find()).isTrue();
        assertThat(UPPER_LAYER.matcher("waits in PtlEQWait").find()).isTrue();
        assertThat(UPPER_LAYER.matcher("Isotach's clock frames").find()).isTrue();
        assertThat(UPPER_LAYER.matcher("one line for portals info, the Portals3J build").find()).isFalse();
    }
}
