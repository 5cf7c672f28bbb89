package org.portals3j.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The MPI test programs of {@code src/test/resources/mpi-programs}, written as for Open MPI's Java bindings:
 * compiled against the MPI layer's classes into an {@code app.jar} that holds only the program, as a user builds
 * one, so that running it proves the launcher brings the layer itself.
 */
final class MpiPrograms {
    private MpiPrograms() {
    }

    /** Compiles program {@code name} against {@code mpiClasses} and packs its classes into {@code dir/app.jar}. */
    static Path appJar(String name, Path mpiClasses, Path dir) throws IOException {
        Path sources = Files.createDirectories(dir.resolve("src"));
        Path source = sources.resolve(name + ".java");
        try (InputStream in = MpiPrograms.class.getResourceAsStream("/mpi-programs/" + name + ".java")) {
            if (in == null) {
                throw new IOException("no test program mpi-programs/" + name + ".java on the class path");
            }
            Files.copy(in, source);
        }
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", classes.toString(), "-cp", mpiClasses.toString(),
                source.toString());
        if (status != 0) {
            throw new IOException("javac failed (" + status + ") on " + source);
        }
        Path jar = dir.resolve("app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.list(classes)) {
            for (Path f : files.toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString()));
                copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    private static void copy(Path file, OutputStream out) throws IOException {
        out.write(Files.readAllBytes(file));
    }
}
