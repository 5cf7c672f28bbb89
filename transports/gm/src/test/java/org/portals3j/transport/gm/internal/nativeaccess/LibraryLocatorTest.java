package org.portals3j.transport.gm.internal.nativeaccess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryLocatorTest {
    private final ClassLoader empty = new URLClassLoader(new URL[0], null);

    @Test
    void theSystemPropertyComesFirstThenTheEnvironment(@TempDir Path dir) throws IOException {
        Path a = Files.writeString(dir.resolve("a.so"), "a");
        Path b = Files.writeString(dir.resolve("b.so"), "b");
        Properties p = new Properties();
        p.setProperty(LibraryLocator.PROPERTY, a.toString());
        assertThat(LibraryLocator.locate(p, Map.of(LibraryLocator.ENVIRONMENT, b.toString()), empty)).isEqualTo(a);
        assertThat(LibraryLocator.locate(new Properties(), Map.of(LibraryLocator.ENVIRONMENT, b.toString()), empty))
                .isEqualTo(b);
    }

    @Test
    void aConfiguredPathThatIsNotThereSaysWhereToPointIt(@TempDir Path dir) {
        Properties p = new Properties();
        p.setProperty(LibraryLocator.PROPERTY, dir.resolve("missing.so").toString());
        assertThatThrownBy(() -> LibraryLocator.locate(p, Map.of(), empty))
                .hasMessageContaining("-Dportals3j.gm.library").hasMessageContaining("not a readable file");
    }

    @Test
    void withoutConfigurationTheClassPathResourceIsCopiedOut(@TempDir Path dir) throws IOException {
        Path root = dir.resolve("jar");
        Files.createDirectories(root.resolve("native/linux-x86_64"));
        Files.writeString(root.resolve(LibraryLocator.RESOURCE), "ELF");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
            Path copy = LibraryLocator.locate(new Properties(), Map.of(), loader);
            assertThat(copy).isNotEqualTo(root.resolve(LibraryLocator.RESOURCE));
            assertThat(Files.readString(copy)).isEqualTo("ELF");
        }
    }

    @Test
    void nothingAnywhereSaysWhatToPutOnTheClassPath() {
        assertThatThrownBy(() -> LibraryLocator.locate(new Properties(), Map.of(), empty))
                .hasMessageContaining("native-gm jar").hasMessageContaining("PORTALS3J_GM_LIBRARY");
    }
}
