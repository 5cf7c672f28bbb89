package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.Event;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.transport.Job;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * What every part of the engine asks of {@link LibraryState}: a handle resolves to a live interface of this
 * library only, a send token to an op with work left, and a call from an event handler is refused.
 */
class LibraryStateTest {
    private final List<Transport> endpoints;
    private final LibraryState library;
    private final LibraryState other;

    LibraryStateTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        library = new LibraryState(job, endpoints.get(0), PortalsConfig.DEFAULT, Dialect.PORTALS_3_2,
                new SendStaging(64, 2));
        other = new LibraryState(job, endpoints.get(1), PortalsConfig.DEFAULT, Dialect.PORTALS_3_2,
                new SendStaging(0, 0));
    }

    @AfterEach
    void tearDown() {
        endpoints.forEach(Transport::close);
    }

    private static ReturnCode code(Runnable call) {
        try {
            call.run();
        } catch (PortalsException e) {
            return e.code();
        }
        return ReturnCode.OK;
    }

    @Test
    void anInterfaceHandleResolvesOnlyWhileItsIncarnationIsLive() {
        NetworkInterfaceState ni = library.nis[0];
        long before = ni.handle();
        assertThat(code(() -> library.ni(before))).as("not initialised yet").isEqualTo(ReturnCode.INV_NI);
        ni.init(1, 2, library.jid, NiLimits.DEFAULT, true);
        long handle = ni.handle();
        assertThat(library.ni(handle)).isSameAs(ni);

        assertThat(code(() -> other.ni(HandleCodec.encode(HandleCodec.KIND_NI, other.libraryId, 0, 0, 0))))
                .as("another library's interface").isEqualTo(ReturnCode.INV_NI);
        assertThat(code(() -> library.ni(HandleCodec.encode(HandleCodec.KIND_EQ, library.libraryId, 0, 0, 0))))
                .as("not an interface handle").isEqualTo(ReturnCode.INV_NI);
        assertThat(code(() -> library.ni(HandleCodec.encode(HandleCodec.KIND_NI, library.libraryId,
                library.nis.length, 0, 0)))).as("no such interface").isEqualTo(ReturnCode.INV_NI);

        ni.teardown();
        assertThat(code(() -> library.ni(handle))).as("finalised").isEqualTo(ReturnCode.INV_NI);
        ni.init(1, 2, library.jid, NiLimits.DEFAULT, true);
        assertThat(code(() -> library.ni(handle))).as("an old incarnation").isEqualTo(ReturnCode.INV_NI);
        assertThat(library.ni(ni.handle())).isSameAs(ni);
    }

    @Test
    void anObjectHandleNamesItsInterfaceOrFailsWithTheCallersCode() {
        long md = HandleCodec.encode(HandleCodec.KIND_MD, library.libraryId, 0, 3, 1);
        assertThat(library.niOf(md, HandleCodec.KIND_MD, ReturnCode.INV_MD)).isSameAs(library.nis[0]);
        assertThatThrownBy(() -> library.niOf(md, HandleCodec.KIND_ME, ReturnCode.INV_ME))
                .isInstanceOf(PortalsException.class).hasMessageContaining("is not a match entry handle");
        assertThat(code(() -> library.niOf(md, HandleCodec.KIND_EQ, ReturnCode.INV_EQ)))
                .isEqualTo(ReturnCode.INV_EQ);
        long foreign = HandleCodec.encode(HandleCodec.KIND_MD, other.libraryId, 0, 3, 1);
        assertThat(code(() -> library.niOf(foreign, HandleCodec.KIND_MD, ReturnCode.INV_MD)))
                .isEqualTo(ReturnCode.INV_MD);
    }

    @Test
    void processIdsAreCheckedAgainstTheJob() {
        int nid = library.self.nid();
        assertThat(library.requireConcreteTarget(new ProcessId(nid, 0))).isEqualTo(0);
        assertThat(code(() -> library.requireConcreteTarget(ProcessId.ANY))).isEqualTo(ReturnCode.INV_PROC);
        assertThat(code(() -> library.requireConcreteTarget(new ProcessId(nid + 1000, 0))))
                .isEqualTo(ReturnCode.INV_PROC);
        library.requireMatchId(ProcessId.ANY);
        library.requireMatchId(new ProcessId(nid, ProcessId.PID_ANY));
        assertThat(code(() -> library.requireMatchId(new ProcessId(nid + 1000, 0))))
                .as("a node outside the job (A-63)").isEqualTo(ReturnCode.INV_PROC);
    }

    @Test
    void aSendTokenNamesAnOpWithWorkLeftAndADetachedOpIsFreedInstead() {
        library.acquire();
        try {
            PendingOp op = library.ops.allocate(PendingOp.Kind.PUT_SEND);
            op.ni = library.nis[0];
            long token = op.token;
            assertThat(library.opToComplete(token)).isSameAs(op);
            assertThat(library.opToComplete(token + (1L << 32))).as("another generation").isNull();

            op.ni = null; // what PtlNIFini does to an op whose staging buffer the transport still reads
            assertThat(library.opToComplete(token)).isNull();
            assertThat(op.inUse).as("freed").isFalse();
            assertThat(library.opToComplete(token)).as("a token is good once").isNull();
        } finally {
            library.release();
        }
    }

    @Test
    void aCallFromAnEventHandlerIsRefusedBeforeItWaitsForTheLock() {
        ReturnCode[] codes = new ReturnCode[2];
        library.handlers.run(e -> {
            codes[0] = code(library::acquire);
            codes[1] = code(library::refuseInHandlerThread);
        }, new Event());
        assertThat(codes).containsExactly(ReturnCode.FAIL, ReturnCode.FAIL);
        assertThat(library.lock.tryLock()).as("the refused call took nothing").isTrue();
        library.lock.unlock();
    }
}
