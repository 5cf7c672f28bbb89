package org.portals3j.launcher;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Finding and calling a rank's {@code main}, as the {@code java} launcher would. */
final class MainClasses {
    private MainClasses() {
    }

    /** A loader for the user's class path entries ({@code :}-separated), in front of the launcher's. */
    static ClassLoader loader(String classPath) throws LauncherException {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            try {
                urls.add(Path.of(entry).toAbsolutePath().toUri().toURL());
            } catch (MalformedURLException | RuntimeException e) {
                throw new LauncherException("bad class path entry '" + entry + "': " + e.getMessage());
            }
        }
        @Nullable ClassLoader own = MainClasses.class.getClassLoader();
        ClassLoader launcher = own != null ? own : ClassLoader.getSystemClassLoader();
        return urls.isEmpty() ? launcher : new URLClassLoader("portals-user", urls.toArray(URL[]::new), launcher);
    }

    /**
     * The main method of {@code className}: {@code static main(String[])}, or else {@code static main()}.
     *
     * @throws LauncherException when the class or its main method cannot be found
     */
    static Method find(String className, ClassLoader loader) throws LauncherException {
        Class<?> c;
        try {
            c = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw new LauncherException("class " + className + " not found on the class path: add it with -cp");
        } catch (LinkageError e) {
            throw new LauncherException("class " + className + " cannot be loaded: " + e);
        }
        try {
            Method m = c.getDeclaredMethod("main", String[].class);
            if (Modifier.isStatic(m.getModifiers())) {
                m.setAccessible(true);
                return m;
            }
        } catch (NoSuchMethodException | RuntimeException e) {
            // try the next form
        }
        try {
            Method m = c.getDeclaredMethod("main");
            if (Modifier.isStatic(m.getModifiers())) {
                m.setAccessible(true);
                return m;
            }
        } catch (NoSuchMethodException | RuntimeException e) {
            // below
        }
        throw new LauncherException("class " + className + " has no static main method: declare"
                + " public static void main(String[] args)");
    }

    /** Calls {@code main} with {@code args}; the main method's own exception is thrown as is. */
    static void invoke(Method main, String[] args) throws Throwable {
        // A method handle, unlike Method.invoke, throws what main throws, unwrapped.
        MethodHandle handle = MethodHandles.lookup().unreflect(main);
        if (main.getParameterCount() == 1) {
            handle.invokeWithArguments((Object) args);
        } else {
            handle.invokeWithArguments();
        }
    }
}
