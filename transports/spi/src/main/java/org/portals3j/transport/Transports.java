package org.portals3j.transport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Finds {@link TransportProvider}s through {@link ServiceLoader}. */
public final class Transports {

    private Transports() {
    }

    /**
     * Every provider on the class path, sorted by name. Providers are looked up through the thread's context
     * class loader when it has one (as {@link ServiceLoader#load(Class)} does), so a tool can add a transport
     * jar at run time, e.g. {@code portals tck -cp my-transport.jar}.
     */
    public static List<TransportProvider> all() {
        List<TransportProvider> providers = new ArrayList<>();
        @Nullable ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = context != null ? context : Transports.class.getClassLoader();
        for (TransportProvider p : ServiceLoader.load(TransportProvider.class, loader)) {
            providers.add(p);
        }
        providers.sort(Comparator.comparing(TransportProvider::name));
        return providers;
    }

    /** The provider called {@code name}, if one is on the class path. */
    public static Optional<TransportProvider> find(String name) {
        return all().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /**
     * The provider called {@code name}.
     *
     * @throws TransportException naming the providers that do exist when there is no such provider, or
     *         saying why when the provider is not available here
     */
    public static TransportProvider require(String name) throws TransportException {
        Optional<TransportProvider> found = find(name);
        if (found.isEmpty()) {
            String known = all().stream().map(TransportProvider::name).collect(Collectors.joining(", "));
            throw new TransportException("unknown transport '" + name + "'; transports on the class path: "
                    + (known.isEmpty() ? "none (add a transport jar, e.g. transport-inmem)" : known));
        }
        TransportProvider provider = found.get();
        Availability availability = provider.availability();
        if (!availability.available()) {
            throw new TransportException("transport '" + name + "' is not available: " + availability.reason());
        }
        return provider;
    }
}
