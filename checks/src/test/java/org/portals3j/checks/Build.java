package org.portals3j.checks;

import java.nio.file.Path;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Where the build's modules are: the root folder checks/pom.xml passes in, and each module's compiled classes. */
final class Build {
    private Build() {
    }

    /** The build's root folder (system property {@code portals3j.root}, set by checks/pom.xml). */
    static Path root() {
        @Nullable String root = System.getProperty("portals3j.root");
        if (root == null) {
            throw new IllegalStateException("system property portals3j.root is not set: run these tests through"
                    + " Maven (checks/pom.xml sets it to the build's root folder)");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    /** {@code target/classes} of the module in {@code folder} (relative to the root). */
    static Path mainClasses(String folder) {
        return root().resolve(folder).resolve("target/classes");
    }
}
