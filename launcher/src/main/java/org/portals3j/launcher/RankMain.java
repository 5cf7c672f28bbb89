package org.portals3j.launcher;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.TransportException;

/**
 * The main class of every rank process of {@code portals run}: joins the job (bootstrap: rendezvous
 * connection, peer table) before the user's code runs, so that the rank is tied to its launcher from the
 * start (it ends itself if the launcher disappears), then calls the user's main class.
 *
 * <p>Arguments: the user's main class, then its arguments. A main that throws ends the rank with status 1
 * and the stack trace on stderr, as {@code java} would.
 */
public final class RankMain {
    private RankMain() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("portals: RankMain needs the main class to run (it is started by portals run)");
            System.exit(PortalsCommand.USAGE_ERROR);
            return;
        }
        try {
            JobRuntime.bootstrap();
        } catch (TransportException e) {
            System.err.println("portals: " + e.getMessage());
            System.exit(1);
            return;
        }
        Method main;
        try {
            main = MainClasses.find(args[0], ClassLoader.getSystemClassLoader());
        } catch (LauncherException e) {
            System.err.println("portals: " + e.getMessage());
            System.exit(1);
            return;
        }
        try {
            MainClasses.invoke(main, Arrays.copyOfRange(args, 1, args.length));
        } catch (Throwable t) {
            System.err.print("Exception in thread \"main\" ");
            t.printStackTrace();
            System.exit(1);
        }
    }
}
