package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;

/** Packets that do not follow the protocol, put straight on a task's request portal: reported, never a crash. */
class HostileInputTest {

    @Test
    void malformedPacketsAreDroppedAndReportedAndTheTaskGoesOn() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            Portals raw = job.libraries.get(0);
            NiHandle ni = raw.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            ProcessId target = new ProcessId(raw.job().peers().member(1).nid(), raw.job().peers().member(1).pid());
            int portal = LapiConfig.DEFAULT.firstPortal();
            MemorySegment lengths = packet(job, Wire.AM_EAGER, 1 << 30, 1L << 40, 0);
            MemorySegment kind = packet(job, (byte) 99, 0, 0, 0);
            MemorySegment forged = packet(job, Wire.COMPLETE, 0, 0, 0x7777_0001L);
            MemorySegment negative = packet(job, Wire.PUT_EAGER, 0, -5, 0);
            for (MemorySegment p : new MemorySegment[] {lengths, kind, forged, negative, job.allocate(10)}) {
                MdHandle md = raw.mdBind(ni, new MemoryDescriptor(p, p.byteSize(), 1, p.byteSize(), 0, null,
                        EqHandle.NONE));
                raw.put(md, AckRequest.NOACK_REQ, target, portal, 0, Wire.MATCH_REQUEST, 0, 0);
            }
            LapiJob.await(() -> job.asyncErrors.size() >= 5, "five reports at task 1");
            // err_type: a request's own kind (AM_ERR, PUT_ERR); INT_ERR for what is no transfer of the layer's
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("(AM_ERR)") && e.contains("do not fit its packet"));
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("(PUT_ERR)") && e.contains("do not fit its packet"));
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("(INT_ERR)") && e.contains("unknown kind 99"));
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("(INT_ERR)") && e.contains("does not have in flight"));
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("(INT_ERR)") && e.contains("is not the layer's"));
            MemorySegment dst = job.allocate(8);
            job.task(1).addrSet((ctx, uhdr, info) -> dst, 1);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 1, null, 0, job.pattern(8, 5), 8, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(dst.mismatch(job.pattern(8, 5))).isEqualTo(-1);
        }
    }

    private static MemorySegment packet(LapiJob job, byte kind, int uhdrLen, long len, long msgId) {
        MemorySegment s = job.allocate(Wire.HEADER);
        Wire.write(s, kind, Wire.F_FINAL, uhdrLen, 0, msgId, 1, 0, len);
        return s;
    }
}
