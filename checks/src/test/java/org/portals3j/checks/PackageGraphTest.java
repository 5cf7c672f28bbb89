package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cycle check on small compiled packages: it finds the cycles there are and only those. */
class PackageGraphTest {

    @Test
    void twoPackagesThatUseEachOtherAreACycleNamedWithTheClassesThatCloseIt(@TempDir Path dir) throws IOException {
        PackageGraph g = compile(dir,
                "package a; public class A { public b.B b; }",
                "package b; public class B { public a.A a; }");
        assertThat(g.cycles()).containsExactly(List.of("a", "b"));
        assertThat(g.describeCycles()).contains("a.A -> b.B", "b.B -> a.A");
    }

    @Test
    void aCycleThroughThreePackagesIsOneComponent(@TempDir Path dir) throws IOException {
        PackageGraph g = compile(dir,
                "package a; public class A { public b.B b; }",
                "package b; public class B { public c.C c; }",
                "package c; public class C { public a.A a; }",
                "package d; public class D { public a.A a; }");
        assertThat(g.cycles()).containsExactly(List.of("a", "b", "c"));
    }

    @Test
    void dependenciesOneWayAreNoCycle(@TempDir Path dir) throws IOException {
        PackageGraph g = compile(dir,
                "package a; public class A { public b.B b; public c.C c; }",
                "package b; public class B { public c.C c; }",
                "package c; public class C { }");
        assertThat(g.packageEdges()).containsEntry("a", Set.of("b", "c")).containsEntry("b", Set.of("c"));
        assertThat(g.cycles()).isEmpty();
        assertThat(g.describeCycles()).isEmpty();
    }

    @Test
    void aPublicPackageAndItsOwnInternalImplementationMayUseEachOther(@TempDir Path dir) throws IOException {
        PackageGraph g = compile(dir,
                "package p; public class Api { public p.internal.engine.Engine e; }",
                "package p.internal.engine; public class Engine { public p.Api api; }");
        assertThat(g.cycles()).isEmpty();
    }

    @Test
    void twoInternalPackagesThatUseEachOtherAreACycle(@TempDir Path dir) throws IOException {
        PackageGraph g = compile(dir,
                "package p.internal.x; public class X { public p.internal.y.Y y; }",
                "package p.internal.y; public class Y { public p.internal.x.X x; }");
        assertThat(g.cycles()).containsExactly(List.of("p.internal.x", "p.internal.y"));
    }

    @Test
    void anotherPackagesInternalsGetNoExemption(@TempDir Path dir) throws IOException {
        PackageGraph g = compile(dir,
                "package p; public class P { public q.internal.Q q; }",
                "package q.internal; public class Q { public p.P p; }");
        assertThat(g.cycles()).containsExactly(List.of("p", "q.internal"));
    }

    @Test
    void packagesOutsideTheAnalysedClassesAreLeftOut() {
        PackageGraph g = PackageGraph.parse("""
                classes -> java.base
                   a.A                                  -> java.lang.Object      java.base
                   a.A                                  -> b.B                   classes
                   b.B                                  -> a.A                   classes
                   b.B                                  -> z.Z                   not found
                """);
        assertThat(g.packageEdges()).containsOnlyKeys("a", "b");
        assertThat(g.cycles()).containsExactly(List.of("a", "b"));
    }

    private static PackageGraph compile(Path dir, String... sources) throws IOException {
        Path src = dir.resolve("src");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString()));
        for (String source : sources) {
            String pkg = source.substring("package ".length(), source.indexOf(';'));
            String name = source.substring(source.indexOf("class ") + "class ".length()).split("\\s")[0];
            Path folder = Files.createDirectories(src.resolve(pkg.replace('.', '/')));
            Path file = folder.resolve(name + ".java");
            Files.writeString(file, source);
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler").isNotNull();
        assertThat(javac.run(null, null, null, args.toArray(new String[0]))).as("javac " + args).isZero();
        return PackageGraph.of(List.of(classes));
    }
}
