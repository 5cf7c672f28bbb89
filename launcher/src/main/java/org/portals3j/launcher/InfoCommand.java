package org.portals3j.launcher;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.portals3j.transport.Availability;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code portals info}: the transports on the class path, the way {@code fi_info -l} lists libfabric's
 * providers: name, what it can do, and whether it can be used here and, if not, why.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Lists the transports found on the class path: name, capabilities, available or not and why.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:listed", "2:a usage or configuration error"},
        footer = {"%nExample:", "  portals info -cp my-transport.jar"})
public final class InfoCommand implements Callable<Integer> {

    @Option(names = {"-cp", "--class-path"}, paramLabel = "PATH", defaultValue = "",
            description = "jars or folders (':'-separated) with more transport providers")
    String classPath = "";

    @Override
    public Integer call() throws Exception {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(MainClasses.loader(classPath));
        try {
            List<TransportProvider> providers = Transports.all();
            if (providers.isEmpty()) {
                System.out.println("no transports on the class path (add a transport jar with -cp)");
            }
            for (TransportProvider p : providers) {
                System.out.print(describe(p));
            }
            return 0;
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** One provider's entry: its name, then indented lines. */
    static String describe(TransportProvider p) {
        Availability a;
        try {
            a = p.availability();
        } catch (RuntimeException | LinkageError e) {
            a = Availability.no("its availability check failed: " + e);
        }
        String caps = p.capabilities().stream().sorted().map(TransportCapability::name)
                .map(n -> n.toLowerCase(Locale.ROOT).replace('_', '-')).collect(Collectors.joining(", "));
        StringBuilder notes = new StringBuilder();
        String label = "    notes:        ";
        for (String note : notes(p)) {
            notes.append(label).append(note).append('\n');
            label = " ".repeat(label.length());
        }
        return p.name() + ":\n"
                + "    description:  " + p.description() + "\n"
                + "    capabilities: " + (caps.isEmpty() ? "(baseline only)" : caps) + "\n"
                + "    available:    " + (a.available() ? "yes" : "no: " + a.reason()) + "\n"
                + notes;
    }

    private static List<String> notes(TransportProvider p) {
        try {
            return p.notes();
        } catch (RuntimeException | LinkageError e) {
            return List.of("its notes failed: " + e);
        }
    }
}
