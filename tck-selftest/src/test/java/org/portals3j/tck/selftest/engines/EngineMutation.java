package org.portals3j.tck.selftest.engines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A deliberately broken engine: one replacement in one engine source file, the kit classes that can see it, and
 * the assertion ids the kit must fail on it (and no others). The text to replace must occur exactly once, read
 * token by token (any run of white space matches any other), so that a change of the engine fails loudly.
 *
 * @param name       what is broken, as a reader says it
 * @param module     the engine's Maven module, relative to the repository root
 * @param sourceFile the source file, relative to the module's {@code src/main/java}
 * @param original   text that occurs exactly once in the current source, white space aside
 * @param broken     what it becomes
 * @param kit        the kit's tests to run: class names, optionally preceded by the child's assertion filter
 * @param mustFail   exactly the assertion ids the kit must fail
 */
record EngineMutation(String name, String module, String sourceFile, String original, String broken,
                      List<String> kit, Set<String> mustFail) {

    /** The broken source text. */
    String mutate(Path repositoryRoot) throws IOException {
        Path file = source(repositoryRoot);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Matcher m = tokens(original).matcher(text);
        if (!m.find()) {
            throw new AssertionError(name + ": the engine changed, " + file + " no longer contains\n" + original
                    + "\nrewrite this mutation against the current source");
        }
        int start = m.start();
        int end = m.end();
        if (m.find()) {
            throw new AssertionError(name + ": " + file + " contains the text to replace more than once\n" + original
                    + "\nmake it longer, so that it names one place");
        }
        return text.substring(0, start) + broken + text.substring(end);
    }

    /** {@code text} as a pattern of its tokens, any run of white space between them. */
    private static Pattern tokens(String text) {
        return Pattern.compile(Arrays.stream(text.strip().split("\\s+")).map(Pattern::quote)
                .collect(Collectors.joining("\\s+")));
    }

    /** The fully qualified name of the source file's top-level class. */
    String className() {
        return sourceFile.substring(0, sourceFile.length() - ".java".length()).replace('/', '.');
    }

    Path source(Path repositoryRoot) {
        return repositoryRoot.resolve(module).resolve("src/main/java").resolve(sourceFile);
    }

    @Override
    public String toString() {
        return name;
    }
}
