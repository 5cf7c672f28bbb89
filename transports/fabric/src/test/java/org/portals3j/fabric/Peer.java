package org.portals3j.fabric;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One side of a test: fabric, domain, completion queue, address vector, endpoint and a registered native arena
 * for one provider; it records what its queue returns. Tests wait with generous bounds and never on timing.
 */
final class Peer implements AutoCloseable {
    /** How long a test waits for a completion before it fails: generous, for a loaded 2-core machine. */
    static final long WAIT_NANOS = 60_000_000_000L;

    /** One completion as the test saw it. */
    record Done(long context, long flags, long length, long tag, long data, boolean hasData) {
    }

    /** One error completion. */
    record Failed(long context, int errno, String errnoName, long overflow, FabricException exception) {
    }

    final Fabric fabric;
    final Domain domain;
    final CompletionQueue cq;
    final AddressVector av;
    final Endpoint ep;
    final Arena arena = Arena.ofShared();
    final MemorySegment memory;
    final MemoryRegion region;
    final List<Done> done = new ArrayList<>();
    final List<Failed> failed = new ArrayList<>();
    private final Completions batch = new Completions(16);
    private final CompletionError error = new CompletionError();

    Peer(FabricInfo info, long key) {
        fabric = Fabric.open(info);
        domain = fabric.openDomain();
        cq = domain.openCompletionQueue(256, WaitObject.NONE);
        av = domain.openAddressVector(4);
        ep = domain.openEndpoint(cq, av);
        memory = arena.allocate(1 << 20, 64);
        region = domain.register(memory, Caps.SEND | Caps.RECV | Caps.READ | Caps.WRITE | Caps.REMOTE_READ
                | Caps.REMOTE_WRITE, key);
    }

    /** Skips the test, with the reason, unless the binding loads and {@code provider} offers an RDM endpoint. */
    static FabricInfo assumeProvider(String provider) {
        assumeTrue(Fabric.isAvailable(), () -> "libfabric binding unavailable: " + Fabric.unavailableReason());
        List<FabricInfo> infos = FabricInfo.query(FabricInfo.Hints.rdm(provider));
        assumeTrue(!infos.isEmpty(), () -> provider + " offers no RDM endpoint with tagged messages and RMA here");
        return infos.get(0);
    }

    /** Reads this peer's queue once, recording what it returns. */
    void poll() {
        int n = cq.read(batch);
        if (n == CompletionQueue.ERROR) {
            if (cq.readError(error)) {
                failed.add(new Failed(error.context(), error.errno(), error.errnoName(), error.overflowLength(),
                        error.toException()));
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            done.add(new Done(batch.context(i), batch.flags(i), batch.length(i), batch.tag(i), batch.data(i),
                    batch.hasRemoteData(i)));
        }
    }

    /** Whether a completion (or error) with {@code context} arrived. */
    boolean completed(long context) {
        return done.stream().anyMatch(d -> d.context() == context)
                || failed.stream().anyMatch(f -> f.context() == context);
    }

    Done completion(long context) {
        return done.stream().filter(d -> d.context() == context).findFirst()
                .orElseThrow(() -> new AssertionError("no successful completion for context " + context + "; errors: "
                        + failed));
    }

    /** Polls every peer until {@code condition} holds, failing after {@link #WAIT_NANOS}. */
    static void await(String what, BooleanSupplier condition, Peer... peers) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("waited " + WAIT_NANOS / 1_000_000_000L + " s for " + what);
            }
            for (Peer p : peers) {
                p.poll();
            }
            Thread.onSpinWait();
        }
    }

    /** Retries {@code post} (false = FI_EAGAIN) while polling every peer, as rxm needs until connected. */
    static void post(String what, BooleanSupplier post, Peer... peers) {
        await(what + " accepted", () -> {
            if (post.getAsBoolean()) {
                return true;
            }
            for (Peer p : peers) {
                p.poll();
            }
            return false;
        });
    }

    @Override
    public void close() {
        ep.close();
        region.close();
        av.close();
        cq.close();
        domain.close();
        fabric.close();
        batch.close();
        error.close();
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
