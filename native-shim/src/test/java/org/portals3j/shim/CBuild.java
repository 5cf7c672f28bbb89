package org.portals3j.shim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where the build put libportals3 and its tools, and compiling the C test programs with them, as a user
 * would: {@code portalscc -Wall -Wextra -Werror prog.c -o prog}.
 */
final class CBuild {
    /** target/native: include/, lib/, bin/portalscc, lib/pkgconfig/. */
    static final Path NATIVE = Path.of(property("portals3j.native"));
    /** src/test/c: the C test programs and ptltest.h. */
    static final Path SOURCES = Path.of(property("portals3j.c.sources"));
    /** src/main/c: the shim's own sources (shim_table.h, for the layout check). */
    static final Path INTERNAL = Path.of(property("portals3j.c.internal"));
    /** target/c-tests: the compiled programs and their logs. */
    static final Path OUT = Path.of(property("portals3j.c.build"));

    private CBuild() {
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null) {
            throw new IllegalStateException(name
                    + " is not set: run the tests through Maven (native-shim/pom.xml sets it)");
        }
        return v;
    }

    /** What a command printed and how it ended. */
    record Outcome(int status, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** Compiles src/test/c/NAME.c into target/c-tests/NAME; fails the test with the compiler's output if it cannot. */
    static Path compile(String name) throws IOException, InterruptedException {
        return compile(name, List.of());
    }

    /** Compiles src/test/c/NAME.c as a Portals 3.3 program, with {@code -DPTL_DIALECT_33}. */
    static Path compile33(String name) throws IOException, InterruptedException {
        return compile(name, name, List.of("-DPTL_DIALECT_33"));
    }

    /**
     * Compiles src/test/c/NAME.c as a Portals 3.3 program into target/c-tests/EXE (a source built in both dialects).
     */
    static Path compile33(String name, String exe) throws IOException, InterruptedException {
        return compile(name, exe, List.of("-DPTL_DIALECT_33"));
    }

    private static Path compile(String name, List<String> flags) throws IOException, InterruptedException {
        return compile(name, name, flags);
    }

    private static Path compile(String name, String exeName, List<String> flags) throws IOException,
            InterruptedException {
        Path exe = OUT.resolve(exeName);
        List<String> args = new ArrayList<>(List.of("-pthread", "-Wall", "-Wextra", "-Werror", "-I" + SOURCES,
                "-I" + INTERNAL));
        args.addAll(flags);
        args.addAll(List.of(SOURCES.resolve(name + ".c").toString(), "-o", exe.toString()));
        Outcome o = portalscc(args.toArray(String[]::new));
        if (o.status() != 0) {
            throw new AssertionError("portalscc could not compile " + name + ".c:\n" + o.all());
        }
        return exe;
    }

    /** Runs portalscc with {@code args}. */
    static Outcome portalscc(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(NATIVE.resolve("bin/portalscc").toString());
        cmd.addAll(List.of(args));
        return run(cmd, Map.of(), OUT);
    }

    /** Runs {@code cmd} in {@code dir} with {@code env} added, to completion (at most 2 minutes). */
    static Outcome run(List<String> cmd, Map<String, String> env, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(OUT);
        Path out = Files.createTempFile(OUT, "cmd", ".out");
        Path err = Files.createTempFile(OUT, "cmd", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(
                        Path.of("/dev/null").toFile()));
        CJob.cleanEnvironment(pb.environment());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in 2 minutes");
        }
        Outcome o = new Outcome(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return o;
    }
}
