package org.portals3j.runtime;

import java.util.stream.Collectors;
import org.portals3j.transport.TransportException;

/**
 * A rank's main for the placement tests: bootstraps its job (no transport), prints what it found in one
 * line, leaves the job and exits 0; on a bootstrap error prints the message to stderr and exits 1.
 * With argument {@code hold}, it publishes {@code ready} and keeps the job open until stdin closes.
 */
public final class BootstrapProbe {
    private BootstrapProbe() {
    }

    public static void main(String[] args) throws Exception {
        JobBootstrap b;
        try {
            b = JobRuntime.bootstrap();
        } catch (TransportException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
            return;
        }
        String uids = b.job().peers().members().stream().map(m -> m.nid() + ":" + m.pid() + ":" + m.uid())
                .collect(Collectors.joining(","));
        System.out.println("rank=" + b.rank() + " size=" + b.size() + " source=" + b.source() + " job=" + b.job().id()
                + " transport=" + b.transportName() + " options=" + b.transportOptions() + " peers=" + uids);
        System.out.flush();
        if (args.length > 0 && args[0].equals("hold")) {
            b.rendezvous().publish(b.rank(), "ready", "yes");
            System.in.read();
        }
        b.close();
    }
}
