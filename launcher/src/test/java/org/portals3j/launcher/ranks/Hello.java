package org.portals3j.launcher.ranks;

import org.portals3j.runtime.JobBootstrap;
import org.portals3j.runtime.JobRuntime;

/** Prints a line to stdout and one to stderr (the second without a newline), from its job bootstrap. */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) throws Exception {
        JobBootstrap b = JobRuntime.bootstrap();
        System.out.println("hello from " + b.rank() + " of " + b.size() + " " + String.join(" ", args));
        Thread helper = new Thread(() -> System.out.println("helper thread of " + b.rank()));
        helper.start();
        helper.join();
        System.err.print("to stderr");
    }
}
