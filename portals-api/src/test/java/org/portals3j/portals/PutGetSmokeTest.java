package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/** End-to-end through the engine and the in-memory transport: one put with ack, one get. */
class PutGetSmokeTest {

    @Test
    void putWithAckThenGetMoveTheBytesAndPostEveryEvent() throws Exception {
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            Portals a = Portals.create(job, endpoints.get(0));
            Portals b = Portals.create(job, endpoints.get(1));
            a.init();
            b.init();
            NiHandle na = a.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle nb = b.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            EqHandle eqa = a.eqAlloc(na, 16);
            EqHandle eqb = b.eqAlloc(nb, 16);

            MemorySegment target = arena.allocate(64);
            MeHandle me = b.meAttach(nb, 4, ProcessId.ANY, 0x42, 0, Unlink.RETAIN, InsertPosition.AFTER);
            b.mdAttach(me, MemoryDescriptor.of(target).withOptions(MdOption.OP_PUT, MdOption.OP_GET)
                    .withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            MemorySegment source = arena.allocate(16);
            for (int i = 0; i < 16; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i + 1));
            }
            MdHandle md = a.mdBind(na, MemoryDescriptor.of(source).withEventQueue(eqa));
            a.put(md, AckRequest.ACK_REQ, b.getId(nb), 4, 0, 0x42, 0, 0xCAFEL);

            Event e = new Event();
            assertThat(a.eqGet(eqa, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.SEND_START);
            assertThat(a.eqGet(eqa, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.SEND_END);
            assertThat(a.eqGet(eqa, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.ACK);
            assertThat(e.mlength()).isEqualTo(16);

            assertThat(b.eqGet(eqb, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.PUT_START);
            assertThat(b.eqGet(eqb, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.PUT_END);
            assertThat(e.hdrData()).isEqualTo(0xCAFEL);
            assertThat(e.initiator()).isEqualTo(a.getId(na));
            assertThat(target.get(ValueLayout.JAVA_BYTE, 15)).isEqualTo((byte) 16);

            MemorySegment back = arena.allocate(8);
            MdHandle gmd = a.mdBind(na, MemoryDescriptor.of(back).withEventQueue(eqa));
            a.get(gmd, b.getId(nb), 4, 0, 0x42, 0);
            assertThat(a.eqWait(eqa, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.REPLY_START);
            assertThat(a.eqWait(eqa, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.REPLY_END);
            // The reply echoes the request's offset (reply table Portals 3.2 spec §4.1, A-34); the get read 8 bytes.
            assertThat(e.offset()).isZero();
            assertThat(e.mlength()).isEqualTo(8);
            assertThat(b.niStatus(nb, StatusRegister.DROP_COUNT)).isZero();
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    @Test
    void memoryConfinedToOneThreadIsRefusedAsAnIllegalDescriptor() throws Exception {
        Job job = Job.local(1);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena confined = Arena.ofConfined()) {
            Portals a = Portals.create(job, endpoints.get(0));
            a.init();
            NiHandle ni = a.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            MemoryDescriptor md = MemoryDescriptor.of(confined.allocate(16));
            assertThatThrownBy(() -> a.mdBind(ni, md))
                    .isInstanceOfSatisfying(PortalsException.class,
                            e -> assertThat(e.code()).isEqualTo(ReturnCode.ILL_MD))
                    .hasMessageContaining("Arena.ofShared()");
            MeHandle me = a.meAttach(ni, 4, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            assertThatThrownBy(() -> a.mdAttach(me, md, Unlink.RETAIN, Unlink.RETAIN))
                    .isInstanceOfSatisfying(PortalsException.class,
                            e -> assertThat(e.code()).isEqualTo(ReturnCode.ILL_MD));
            // heap memory and shared arenas are reachable from any thread
            assertThat(a.mdBind(ni, MemoryDescriptor.of(MemorySegment.ofArray(new byte[16]))))
                    .isNotEqualTo(MdHandle.NONE);
            a.fini();
        } finally {
            endpoints.forEach(Transport::close);
        }
    }
}
