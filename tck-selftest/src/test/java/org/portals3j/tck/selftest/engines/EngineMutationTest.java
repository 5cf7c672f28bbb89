package org.portals3j.tck.selftest.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mutation applies where its text occurs exactly once, white space aside, and fails loudly anywhere else. */
class EngineMutationTest {
    private static final String FILE = "org/example/Engine.java";

    private static EngineMutation mutation(String original, String broken) {
        return new EngineMutation("test", "engine", FILE, original, broken, List.of(), Set.of("P-001"));
    }

    private static void source(Path root, String text) throws IOException {
        Path packageDir = Files.createDirectories(root.resolve("engine/src/main/java/org/example"));
        Files.writeString(packageDir.resolve("Engine.java"), text);
    }

    @Test
    void replacesTheOnlyOccurrenceWhateverItsLineBreaksAndIndentation(@TempDir Path root) throws IOException {
        source(root, "class Engine {\n    int f(int a) {\n        if (a > 0) {\n            a--;\n        }\n"
                + "        return a;\n    }\n}\n");
        assertThat(mutation("if (a > 0) { a--;", "if (a > 0) {").mutate(root))
                .isEqualTo("class Engine {\n    int f(int a) {\n        if (a > 0) {\n        }\n"
                        + "        return a;\n    }\n}\n");
    }

    @Test
    void textTheEngineNoLongerHasFailsNamingTheFile(@TempDir Path root) throws IOException {
        source(root, "class Engine { int f(int a) { return a - 1; } }\n");
        assertThatThrownBy(() -> mutation("a--;", "").mutate(root)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("the engine changed").hasMessageContaining("Engine.java");
    }

    @Test
    void textThatOccursTwiceFailsRatherThanPickOne(@TempDir Path root) throws IOException {
        source(root, "class Engine { int f(int a) { a--; a--; return a; } }\n");
        assertThatThrownBy(() -> mutation("a--;", "").mutate(root)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("more than once");
    }

    @Test
    void theClassNameIsTheSourceFilesPath() {
        assertThat(mutation("x", "y").className()).isEqualTo("org.example.Engine");
    }
}
