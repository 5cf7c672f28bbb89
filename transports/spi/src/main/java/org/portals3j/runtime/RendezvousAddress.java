package org.portals3j.runtime;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Where a job's TCP rendezvous is served: {@code host:port} (IPv6 literals in brackets, {@code [::1]:7000}),
 * as written in {@code PORTALS_RENDEZVOUS}.
 *
 * @param host a host name or address literal (without brackets)
 * @param port 1..65535, or 0 for "any free port" when serving
 */
public record RendezvousAddress(String host, int port) {

    public RendezvousAddress {
        Objects.requireNonNull(host, "host");
        if (host.isEmpty()) {
            throw new IllegalArgumentException("the rendezvous host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the rendezvous port must be 0..65535, not " + port);
        }
    }

    /**
     * Parses {@code host:port}.
     *
     * @throws IllegalArgumentException saying what the value should look like
     */
    public static RendezvousAddress parse(String text) {
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        String hint = "PORTALS_RENDEZVOUS must be host:port (e.g. node01:7010 or 127.0.0.1:7010), not '" + text + "'";
        if (colon <= 0 || colon == t.length() - 1) {
            throw new IllegalArgumentException(hint);
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException(hint + " (write IPv6 addresses in brackets: [::1]:7010)");
        }
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(hint, e);
        }
        if (port < 1 || port > 65535 || host.isEmpty()) {
            throw new IllegalArgumentException(hint);
        }
        return new RendezvousAddress(host, port);
    }

    /** An unresolved socket address (resolved when connecting). */
    public InetSocketAddress toSocketAddress() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
