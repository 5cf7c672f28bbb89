package org.portals3j.launcher;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Telling a native program ({@code ./prog}, a C program linked with libportals3) from a main class, as
 * {@code portals run} is given either. A name with a {@code /} is a program; a bare name is a program only
 * if no class of that name exists and an executable of that name is on {@code PATH} (as a shell finds it).
 */
final class NativePrograms {
    /** The environment variables libportals3 reads to start the Java engine inside a program. */
    static final String CLASSPATH = "PORTALS3J_CLASSPATH";
    static final String JAVA_HOME = "PORTALS3J_JAVA_HOME";
    static final String JVM_OPTIONS = "PORTALS3J_JVM_OPTIONS";

    private NativePrograms() {
    }

    /** True if {@code name} can only be a path to a program (class names have no '/'). */
    static boolean isPath(String name) {
        return name.contains("/");
    }

    /**
     * The executable {@code name} names, as an absolute path.
     *
     * @throws LauncherException if it is not an executable file
     */
    static Path require(String name) throws LauncherException {
        Path p;
        try {
            p = Path.of(name).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new LauncherException("'" + name + "' is not a valid path to a program");
        }
        if (!Files.isRegularFile(p)) {
            throw new LauncherException("program " + name + " not found"
                    + (Files.isDirectory(p) ? " (it is a folder)" : ""));
        }
        if (!Files.isExecutable(p)) {
            throw new LauncherException("program " + name + " is not executable: chmod +x " + name);
        }
        return p;
    }

    /**
     * For a bare {@code name} that is neither a class nor on {@code PATH}: the one line that says to write
     * {@code ./name} when {@code dir} (the current directory) has an executable of that name, as a shell user
     * expects (a shell, too, looks a name without '/' up on PATH only); null otherwise.
     */
    static @Nullable String currentDirectoryHint(String name, Path dir) {
        try {
            Path p = dir.resolve(name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return "no class " + name + " on the class path and no program " + name + " on PATH; to run the"
                        + " program in this folder, write ./" + name;
            }
        } catch (InvalidPathException e) {
            // not a file name: no hint
        }
        return null;
    }

    /** The executable called {@code name} on {@code PATH}, or null. */
    static @Nullable Path onPath(String name, @Nullable String path) {
        if (path == null || name.isEmpty()) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            try {
                Path p = Path.of(dir, name).toAbsolutePath();
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p;
                }
            } catch (InvalidPathException e) {
                // a PATH entry that is no path: skip it
            }
        }
        return null;
    }
}
