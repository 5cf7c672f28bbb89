package org.portals3j.launcher.ranks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.runtime.JobContext;
import org.portals3j.transport.JobMember;

/** What the failure-handling rank programs share: a Portals library on the job's transport. */
final class PortalsRank {
    final JobContext job;
    final Portals portals;
    final NiHandle ni;
    final EqHandle eq;
    final Arena arena = Arena.ofShared();
    final Event event = new Event();

    PortalsRank(JobContext job) {
        this.job = job;
        this.portals = Portals.create(job.job(), job.transport());
        portals.init();
        this.ni = portals.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        this.eq = portals.eqAlloc(ni, 256);
    }

    ProcessId id(int rank) {
        JobMember m = job.job().peers().member(rank);
        return new ProcessId(m.nid(), m.pid());
    }

    MemorySegment allocate(long bytes) {
        return arena.allocate(bytes);
    }

    /** The next event (PtlEQWait); it must be of kind {@code expected}. */
    Event next(EventKind expected) {
        ReturnCode rc = portals.eqWait(eq, event);
        if (rc != ReturnCode.OK || event.type() != expected) {
            throw new IllegalStateException("expected " + expected + ", got " + rc + " " + event);
        }
        return event;
    }

    /** The next event of kind {@code expected}, which must report success. */
    Event nextOk(EventKind expected) {
        Event e = next(expected);
        if (e.niFailType() != NiFailType.OK) {
            throw new IllegalStateException(expected + " reported " + e.niFailType() + ": " + e);
        }
        return e;
    }

    static String pid() {
        return Long.toString(ProcessHandle.current().pid());
    }
}
