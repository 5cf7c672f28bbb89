package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** No package cycle in the main code of any module of the build (the rule is {@link PackageGraph}'s). */
class PackageCyclesTest {

    @Test
    void mainCodeOfAllModulesTogetherHasNoPackageCycle() throws IOException {
        List<Path> roots = mainClassRoots(Build.root());
        assertThat(roots).as("class roots of the modules with main code").hasSizeGreaterThan(5);
        PackageGraph graph = PackageGraph.of(roots);
        assertThat(graph.packageEdges()).as("dependencies jdeps found").isNotEmpty();
        assertThat(graph.describeCycles())
                .as("package cycles in main code; break each by moving the type that closes it to the package it"
                        + " belongs to")
                .isEmpty();
    }

    /** {@code target/classes} of every folder with a pom.xml and main sources, which must have been compiled. */
    private static List<Path> mainClassRoots(Path root) throws IOException {
        List<Path> roots = new ArrayList<>();
        try (Stream<Path> poms = Files.walk(root, 4)) {
            for (Path pom : poms.filter(p -> p.endsWith("pom.xml")).sorted().toList()) {
                Path module = pom.getParent();
                if (module == null || module.toString().contains("/target/")
                        || !Files.isDirectory(module.resolve("src/main/java"))) {
                    continue;
                }
                Path classes = module.resolve("target/classes");
                assertThat(classes)
                        .as("%s has main sources but no compiled classes: add it as a dependency of checks/pom.xml,"
                                + " so that the reactor builds it first", root.relativize(module))
                        .isDirectory();
                roots.add(classes);
            }
        }
        return roots;
    }
}
