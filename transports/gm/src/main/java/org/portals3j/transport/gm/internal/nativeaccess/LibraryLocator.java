package org.portals3j.transport.gm.internal.nativeaccess;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where libgm.so is: the system property {@value #PROPERTY}, else the environment variable {@value #ENVIRONMENT},
 * else the class-path resource {@value #RESOURCE} (the native-gm jar's), copied once to a temporary file.
 */
final class LibraryLocator {
    static final String PROPERTY = "portals3j.gm.library";
    static final String ENVIRONMENT = "PORTALS3J_GM_LIBRARY";
    static final String RESOURCE = "native/linux-x86_64/libgm.so";

    private LibraryLocator() {
    }

    /**
     * The library's path.
     *
     * @throws IllegalStateException when it is nowhere (the message says what to install or set)
     */
    static Path locate(Properties properties, Map<String, String> environment, @Nullable ClassLoader loader) {
        String configured = properties.getProperty(PROPERTY);
        String from = "-D" + PROPERTY;
        if (configured == null || configured.isBlank()) {
            configured = environment.get(ENVIRONMENT);
            from = ENVIRONMENT;
        }
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (!Files.isReadable(path)) {
                throw new IllegalStateException(from + "=" + configured + " is not a readable file; point it at "
                        + "libgm.so (native-shim/libgm/target/native/lib/libgm.so)");
            }
            return path;
        }
        @Nullable URL url = loader == null ? ClassLoader.getSystemResource(RESOURCE) : loader.getResource(RESOURCE);
        if (url == null) {
            throw new IllegalStateException("libgm.so not found: put the native-gm jar on the class path, or set -D"
                    + PROPERTY + " or " + ENVIRONMENT + " to libgm.so");
        }
        try (InputStream in = url.openStream()) {
            Path file = Files.createTempFile("portals3j-libgm-", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("cannot copy libgm.so out of the class path to a temporary file ("
                    + e.getMessage() + "); set -D" + PROPERTY + " to libgm.so instead", e);
        }
    }
}
