package org.portals3j.launcher;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How {@link ProcessJob} starts one rank process: a JVM running {@link RankMain} and the user's main class,
 * or a native program linked with libportals3. Both get the job's {@code PORTALS_*} environment; a program
 * also gets what libportals3 needs to start the Java engine inside it: {@code PORTALS3J_CLASSPATH} (this
 * launcher's class path, then {@code -cp}), {@code PORTALS3J_JAVA_HOME} (this JVM's {@code java.home}) and
 * {@code PORTALS3J_JVM_OPTIONS} (the {@code --jvm-option}s).
 */
record RankCommand(List<String> command, Map<String, String> environment) {

    RankCommand {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }

    /** {@code java ... RankMain MAINCLASS ARGS}. */
    static RankCommand mainClass(String mainClass, List<String> args, String userClassPath, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath(userClassPath));
        cmd.add(RankMain.class.getName());
        cmd.add(mainClass);
        cmd.addAll(args);
        return new RankCommand(cmd, Map.of());
    }

    /** {@code PROGRAM ARGS}, with the engine's class path, JDK and JVM options in its environment. */
    static RankCommand program(Path program, List<String> args, String userClassPath, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(program.toString());
        cmd.addAll(args);
        return new RankCommand(cmd, Map.of(
                NativePrograms.CLASSPATH, classPath(userClassPath),
                NativePrograms.JAVA_HOME, System.getProperty("java.home"),
                NativePrograms.JVM_OPTIONS, String.join(" ", jvmOptions)));
    }

    /** The launcher's class path, then the user's {@code -cp}. */
    private static String classPath(String userClassPath) {
        String launcherClassPath = System.getProperty("java.class.path", "");
        return userClassPath.isBlank() ? launcherClassPath : launcherClassPath + File.pathSeparator + userClassPath;
    }
}
