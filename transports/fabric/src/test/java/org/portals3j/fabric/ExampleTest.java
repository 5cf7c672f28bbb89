package org.portals3j.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The example in package-info.java, cut out of the source, compiled with javac and run. */
class ExampleTest {
    @ParameterizedTest
    @ValueSource(strings = {"tcp;ofi_rxm", "shm"})
    void packageExampleRuns(String provider) throws Exception {
        Peer.assumeProvider(provider);
        Path dir = Path.of(System.getProperty("portals3j.fabric.c.build", "target")).resolveSibling("example");
        Files.createDirectories(dir);
        Path src = dir.resolve("Example.java");
        Files.writeString(src, """
                import java.lang.foreign.*;
                import org.portals3j.fabric.*;
                public final class Example implements java.util.function.UnaryOperator<String> {
                    @Override
                    public String apply(String provider) {
                """ + snippet() + "\n}\n}\n");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-cp", System.getProperty("java.class.path"), "-d", dir.toString(),
                src.toString());
        assertThat(rc).as("javac of the package example").isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                ExampleTest.class.getClassLoader())) {
            @SuppressWarnings("unchecked")
            UnaryOperator<String> example = (UnaryOperator<String>) loader.loadClass("Example")
                    .getDeclaredConstructor().newInstance();
            ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "example");
                t.setDaemon(true);
                return t;
            });
            try {
                Future<String> result = runner.submit(() -> example.apply(provider));
                assertThat(result.get(Peer.WAIT_NANOS, TimeUnit.NANOSECONDS)).isEqualTo("hello");
            } finally {
                runner.shutdownNow();
            }
        }
    }

    /** The lines of the {@code @snippet} in package-info.java, without the comment's leading {@code " * "}. */
    private static String snippet() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("src/main/java/org/portals3j/fabric/package-info.java"));
        int start = lines.indexOf(" * {@snippet :");
        int end = lines.indexOf(" */") - 1; // the snippet is the doc's last part; its closing brace precedes " */"
        assertThat(start).as("the package example").isNotNegative();
        assertThat(lines.get(end)).as("the snippet's end").isEqualTo(" * }");
        StringBuilder code = new StringBuilder();
        for (String line : lines.subList(start + 1, end)) {
            code.append(line.length() > 3 ? line.substring(3) : "").append('\n');
        }
        return code.toString();
    }
}
