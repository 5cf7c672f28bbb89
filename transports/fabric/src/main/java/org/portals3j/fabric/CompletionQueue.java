package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.portals3j.fabric.internal.NativeFabric;

/**
 * A completion queue of tagged entries ({@code fi_cq_open}, {@code FI_CQ_FORMAT_TAGGED}). Reading it is also what
 * moves manual-progress providers forward (all of tcp;ofi_rxm, shm and udp;ofi_rxd here): an application that
 * waits for anything must keep calling {@link #read}.
 */
public final class CompletionQueue extends FabricResource {
    /** {@link #read} found an error completion: fetch it with {@link #readError}. */
    public static final int ERROR = -1;

    private final Domain domain;

    private CompletionQueue(Domain domain, MemorySegment handle) {
        super("completion queue", handle, List.of(domain));
        this.domain = domain;
    }

    static CompletionQueue open(Domain domain, int size, WaitObject wait) {
        NativeFabric lib = NativeFabric.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            FabricException.check("fi_cq_open(wait " + wait + ")", lib.cqOpen(domain.handle(), size, wait.value,
                    out));
            return new CompletionQueue(domain, out.get(ADDRESS, 0));
        }
    }

    Domain domain() {
        return domain;
    }

    /**
     * Reads up to {@code batch.capacity()} completions into {@code batch} ({@code fi_cq_read}); allocates nothing.
     *
     * @return the number read (0 if none is ready), or {@link #ERROR} if the next entry is an error
     * @throws FabricException for any other failure
     */
    public int read(Completions batch) {
        long rc = NativeFabric.get().cqRead(handle(), batch.entries(), batch.capacity());
        if (rc >= 0) {
            batch.count((int) rc);
            return (int) rc;
        }
        batch.count(0);
        if (rc == -FabricException.FI_EAGAIN) {
            return 0;
        }
        if (rc == -FabricException.FI_EAVAIL) {
            return ERROR;
        }
        throw FabricException.of("fi_cq_read", (int) -rc);
    }

    /**
     * Reads the next error completion into {@code error} ({@code fi_cq_readerr}); allocates nothing.
     *
     * @return whether there was one
     */
    public boolean readError(CompletionError error) {
        long rc = NativeFabric.get().cqReaderr(handle(), error.entry());
        if (rc == -FabricException.FI_EAGAIN) {
            return false;
        }
        FabricException.check("fi_cq_readerr", rc);
        return rc > 0;
    }

    /**
     * The file descriptor to poll for completions ({@code fi_control(FI_GETWAIT)}); for a queue opened with
     * {@link WaitObject#FD}. A wake-up may find no completion (rxm rendezvous): read, then wait again.
     *
     * @throws FabricException {@code FI_ENOSYS} on providers without one (udp;ofi_rxd)
     */
    public int waitFd() {
        int rc = NativeFabric.get().cqWaitFd(handle());
        FabricException.check("fi_control(FI_GETWAIT)", rc);
        return rc;
    }
}
