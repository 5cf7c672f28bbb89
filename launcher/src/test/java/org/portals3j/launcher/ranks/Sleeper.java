package org.portals3j.launcher.ranks;

import org.portals3j.runtime.JobBootstrap;
import org.portals3j.runtime.JobRuntime;

/** Bootstraps, prints its pid and the peer table's uids, and sleeps until it is stopped. */
public final class Sleeper {
    private Sleeper() {
    }

    public static void main(String[] args) throws Exception {
        JobBootstrap b = JobRuntime.bootstrap();
        StringBuilder uids = new StringBuilder();
        b.job().peers().members().forEach(m -> uids.append(m.rank()).append(':').append(m.uid()).append(' '));
        System.out.println("pid=" + ProcessHandle.current().pid() + " job=" + b.job().id() + " source=" + b.source()
                + " transport=" + b.transportName() + " marker=" + System.getProperty("portals.test.marker")
                + " uids=" + uids.toString().strip());
        Thread.sleep(args.length > 0 ? Long.parseLong(args[0]) : 600_000);
    }
}
