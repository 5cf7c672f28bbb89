package org.portals3j.launcher;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
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
            @Nullable TransportException config = transportProblem(t);
            if (config != null) {
                // a configuration problem (port in use, another job key, ...): its one line says what to do
                System.err.println("portals: " + config.getMessage());
            } else {
                System.err.print("Exception in thread \"main\" ");
                t.printStackTrace();
            }
            System.exit(1);
        }
    }

    /** The TransportException behind {@code t}, if the rank failed because its transport could not start. */
    static @Nullable TransportException transportProblem(Throwable t) {
        for (@Nullable Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof TransportException e) {
                return e;
            }
        }
        return null;
    }
}
