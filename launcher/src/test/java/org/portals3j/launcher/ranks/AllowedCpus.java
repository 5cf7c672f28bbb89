package org.portals3j.launcher.ranks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.portals3j.runtime.JobBootstrap;
import org.portals3j.runtime.JobRuntime;

/** Prints the CPUs its main thread and a thread it starts may run on ({@code Cpus_allowed_list}). */
public final class AllowedCpus {
    private AllowedCpus() {
    }

    public static void main(String[] args) throws Exception {
        JobBootstrap b = JobRuntime.bootstrap();
        String[] started = new String[1];
        Thread t = new Thread(() -> started[0] = allowed());
        t.start();
        t.join();
        System.out.println("rank " + b.rank() + " main=" + allowed() + " thread=" + started[0]);
    }

    private static String allowed() {
        try {
            return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("?");
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
