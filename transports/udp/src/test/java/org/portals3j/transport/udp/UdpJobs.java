package org.portals3j.transport.udp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/** Opens udp endpoints for tests and closes them afterwards. */
final class UdpJobs implements AutoCloseable {
    final List<Transport> opened = new ArrayList<>();
    private final List<ControlledIo> controlled = new ArrayList<>();

    List<Transport> open(Job job, Map<String, String> options) throws TransportException {
        List<Transport> endpoints = LocalJob.openAll(Transports.require("udp"), job, IdleMode.BACKOFF, options);
        opened.addAll(endpoints);
        return endpoints;
    }

    /** Opens rank {@code rank} of {@code job} with its own options (e.g. faults on one rank only). */
    Transport openRank(Job job, int rank, Map<String, String> options) throws TransportException {
        Transport t = Transports.require("udp").open(new EndpointConfig(job, rank, IdleMode.BACKOFF, options));
        opened.add(t);
        return t;
    }

    /** An endpoint and the socket under the test's control it was opened on. */
    record Controlled(UdpEndpoint endpoint, ControlledIo io) {
    }

    /** Opens rank {@code rank} of {@code job} on a socket under the test's control. */
    Controlled openControlled(Job job, int rank, Map<String, String> options) throws TransportException {
        AtomicReference<ControlledIo> io = new AtomicReference<>();
        UdpEndpoint t = UdpEndpoint.open(new EndpointConfig(job, rank, IdleMode.BACKOFF, options),
                UdpOptions.parse(options), inner -> {
                    ControlledIo c = new ControlledIo(inner);
                    io.set(c);
                    return c;
                });
        opened.add(t);
        ControlledIo c = Objects.requireNonNull(io.get());
        controlled.add(c);
        return new Controlled(t, c);
    }

    /** Closes every endpoint, after letting every frozen socket go (a close joins threads waiting on one). */
    @Override
    public void close() {
        for (ControlledIo c : controlled) {
            try {
                c.thaw(false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        opened.forEach(Transport::close);
    }
}
