package org.portals3j.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import org.checkerframework.checker.nullness.qual.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code portals} command line. Subcommands: {@code run} (a job of N ranks), {@code tck} (the
 * conformance kit), {@code info} (the transports found).
 *
 * <p>Exit statuses: a usage or configuration error is {@value #USAGE_ERROR} with one line on stderr; otherwise
 * the subcommand's status ({@code run}: the job's).
 */
@Command(name = "portals", mixinStandardHelpOptions = true, versionProvider = PortalsCommand.Version.class,
        description = "Portals3J: Portals 3.2 messaging on the JVM.",
        subcommands = {RunCommand.class, TckCommand.class, InfoCommand.class, InstallCommand.class,
            CommandLine.HelpCommand.class})
public final class PortalsCommand implements Runnable {
    /** Exit status of a usage or configuration error (the shell convention). */
    public static final int USAGE_ERROR = 2;

    @CommandLine.Spec
    @SuppressWarnings("initialization.field.uninitialized") // injected by picocli
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "a command is missing: portals run, portals tck or portals info (see: portals --help)");
    }

    /** The command line with this project's error handling: one line for usage errors, status 2. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PortalsCommand());
        cl.setStopAtPositional(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true); // --pid-check auto|on|off
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            PrintWriter err = c.getErr();
            err.println(c.getCommandName().equals("portals") ? "portals: " + ex.getMessage()
                    : "portals " + c.getCommandName() + ": " + ex.getMessage() + " (see: portals "
                    + c.getCommandName() + " --help)");
            err.flush();
            return USAGE_ERROR;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            if (ex instanceof LauncherException le) {
                c.getErr().println("portals " + c.getCommandName() + ": " + le.getMessage());
                c.getErr().flush();
                return le.status();
            }
            throw ex;
        });
        return cl;
    }

    /** Runs {@code args} and returns the exit status (without exiting). */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /**
     * {@code portals --version} / {@code -V}: the version Maven wrote into the launcher jar
     * ({@code META-INF/maven/org.portals3j/launcher/pom.properties}); "(development build)" from classes that
     * were not packaged.
     */
    static final class Version implements CommandLine.IVersionProvider {
        static final String POM_PROPERTIES = "/META-INF/maven/org.portals3j/launcher/pom.properties";

        @Override
        public String[] getVersion() throws IOException {
            @Nullable String v = null;
            try (@Nullable InputStream in = PortalsCommand.class.getResourceAsStream(POM_PROPERTIES)) {
                if (in != null) {
                    Properties pom = new Properties();
                    pom.load(in);
                    v = pom.getProperty("version");
                }
            }
            return new String[] {"portals " + (v == null ? "(development build)" : v)};
        }
    }
}
