package org.portals3j.tck.selftest.engines;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/** Compiles one mutated engine class against this JVM's class path into a directory of its own. */
final class MutantCompiler {
    private MutantCompiler() {
    }

    /** Compiles {@code mutation} of the sources under {@code repositoryRoot} into {@code out}. */
    static void compile(EngineMutation mutation, Path repositoryRoot, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run the self-test on a JDK, not a JRE");
        }
        String text = mutation.mutate(repositoryRoot);
        JavaFileObject source = new SimpleJavaFileObject(
                URI.create("string:///" + mutation.sourceFile()), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }
        };
        StringWriter diagnostics = new StringWriter();
        List<String> options = List.of("-proc:none", "-nowarn", "-classpath", System.getProperty("java.class.path"),
                "-d", out.toString());
        Boolean ok = javac.getTask(diagnostics, null, null, options, null, List.of(source)).call();
        if (!ok) {
            throw new AssertionError(mutation.name() + ": the mutated " + mutation.sourceFile()
                    + " does not compile:\n" + diagnostics);
        }
    }
}
